import type { ApiCaller } from '../../modules/api-keys/guard.ts';
import { createRule, listRules, type RuleEditor } from '../../modules/earning-rules/service.ts';
import { releasePendingPoints } from '../../modules/events/release.ts';
import { getEvent, recordEvent } from '../../modules/events/service.ts';
import { declareEventType, listEventTypes } from '../../modules/events/types.ts';
import { ApiError } from '../../http/api-error.ts';
import type { Db } from '../database.ts';

/**
 * Points from events in the demo program (issue 32): Acme's earning rules as its program manager
 * would write them, and a few purchases, a return and a completed course for Dana (`demo`) and
 * Mona (`merch`, in Arabic), so that `npm start` shows pending points with their release day,
 * purchases credited in the rules' words, a partial return and a release, without a rule file or
 * an event posted by hand. All through the services (the rules', the event types', the events'
 * and the release run), as a program manager and a shop's system would.
 *
 * Dated relative to the seed's `now`, as the rest of the demo: whenever it runs, the pending
 * points become available days later and the released ones are released. Each date is picked on
 * a weekday or a weekend as the story needs (pickDay), so what each event earns never depends on
 * the day the seed runs: the totals below hold on any day (the tests check them).
 */

const DAY = 86_400_000;

/** The seed acts as the installation's operator would with `rewards rules create` (no staff needed). */
const EDITOR: RuleEditor = { kind: 'operator', name: 'demo seed', origin: 'seed' };
const REASON = 'Demo program: earning rules for purchases and courses';
/** The shop's system that sends the demo's events (the events keep its key's id; no key is made, none is published). */
const callerOf = (clientId: string): ApiCaller => ({ keyId: 'demo-seed', clientId, keyName: 'demo seed', scopes: ['events:write'] });

/** The rules begin this many days before the seed (before its oldest event). */
const RULES_SINCE_DAYS = 45;

/** The ids of the demo's earning rules (a bench that wants Acme with rules of its own only disables every rule it lists). */
export const DEMO_RULE_IDS = ['store-purchases', 'shoes-and-bags', 'web-orders', 'weekend-double', 'training-courses'] as const;
export const DEMO_COURSE_TYPE = 'course.completed';

/**
 * What the demo's events put in each participant's balance in all (credits, the release, less
 * the return): demo.ts keeps Dana at 12,500 and Mona at 3,250, which the README and many tests
 * name, by giving their other entries that much less.
 */
export const DEMO_EVENT_BALANCE = { demo: 779, merch: 150 } as const;

const weekday = [1, 2, 3, 4, 5];
const weekend = [6, 0];

/** The latest day at least `daysAgo` days before `now` (UTC, the demo client's zone) whose weekday is one of `days`, at hh:mm UTC. */
export function pickDay(now: Date, daysAgo: number, days: readonly number[], hour: number, minute = 0): Date {
  for (let back = daysAgo; ; back += 1) {
    const day = new Date(now.getTime() - back * DAY);
    if (days.includes(day.getUTCDay())) return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute));
  }
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

function rules(now: Date): Array<Record<string, unknown>> {
  return [
    {
      id: 'store-purchases',
      name: 'Store purchases',
      event: 'purchase',
      conditions: [{ attribute: 'channel', equals: 'store' }],
      earn: { pointsPer: 2, per: '1.00', currency: 'EUR', rounding: 'down' },
      priority: 10,
      text: {
        'en-US': '2 points per euro in store',
        'fr-FR': '2 points par euro en magasin',
        ar: 'نقطتان لكل يورو في المتجر',
      },
    },
    {
      id: 'shoes-and-bags',
      name: 'Shoes and bags',
      event: 'purchase',
      conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }],
      earn: { pointsPer: 1, per: '1.00', currency: 'EUR', rounding: 'down' },
      caps: { participant: { points: 300, per: 'month' } },
      priority: 5,
      text: {
        'en-US': '1 more point per euro on shoes and bags, up to 300 a month',
        'fr-FR': '1 point de plus par euro sur les chaussures et les sacs, jusqu’à 300 par mois',
        ar: 'نقطة إضافية لكل يورو على الأحذية والحقائب، حتى 300 نقطة في الشهر',
      },
    },
    {
      id: 'web-orders',
      name: 'Web orders',
      event: 'purchase',
      conditions: [{ attribute: 'channel', equals: 'web' }],
      earn: { pointsPer: 1, per: '1.00', currency: 'EUR', rounding: 'down' },
      // The shop's return window: the points are the participant's once it has passed.
      pendingDays: 14,
      priority: 10,
      text: {
        'en-US': '1 point per euro online, yours 14 days after the order',
        'fr-FR': '1 point par euro en ligne, à vous 14 jours après la commande',
        ar: 'نقطة لكل يورو عبر الإنترنت، متاحة بعد 14 يومًا من الطلب',
      },
    },
    {
      id: 'weekend-double',
      name: 'Weekend double points',
      event: 'purchase',
      conditions: [{ dayOfWeek: ['sat', 'sun'] }],
      earn: { multiply: '2', rules: ['store-purchases'], rounding: 'down' },
      // A promotion between two dates, around the seed's day.
      validFrom: dayOf(new Date(now.getTime() - 42 * DAY)),
      validUntil: dayOf(new Date(now.getTime() + 30 * DAY)),
      text: {
        'en-US': 'store points doubled on Saturdays and Sundays',
        'fr-FR': 'points en magasin doublés le samedi et le dimanche',
        ar: 'نقاط المتجر مضاعفة يومي السبت والأحد',
      },
    },
    {
      // Ids sort after a purchase rule's: the console's Try it starts on the type of the first rule listed (by id).
      id: 'training-courses',
      name: 'Training courses',
      event: DEMO_COURSE_TYPE,
      earn: { points: 150 },
      text: {
        'en-US': '150 points for each course completed',
        'fr-FR': '150 points par formation terminée',
        ar: '150 نقطة لكل دورة تدريبية مكتملة',
      },
    },
  ];
}

/**
 * The events, in the order a shop would have sent them. Dana: a weekend store purchase of shoes
 * (store, shoes, doubled: 241 + 120 + 241 = 602), 40.00 of it returned (199 back), a weekday store
 * purchase (73), a web order whose 14 days have passed (64, released by the run below), a web
 * order of a bag (89 credited, 89 pending), a course (150), and a web order of the last weekday
 * (42 pending): 779 in her balance, 131 pending on two days. Mona: a weekday store purchase of a bag
 * (100 + 50 = 150) and a web order (150 pending).
 */
export function demoEvents(now: Date): Array<Record<string, unknown>> {
  const at = (date: Date) => date.toISOString();
  const shoes = pickDay(now, 14, weekend, 11, 20);
  const purchase = (id: string, username: string, occurredAt: Date, amount: string, attributes: Record<string, string>) => ({
    id,
    type: 'purchase',
    username,
    occurredAt: at(occurredAt),
    amount,
    currency: 'EUR',
    attributes,
  });
  return [
    purchase('WEB-58213', 'demo', pickDay(now, 25, weekday, 19, 5), '64.90', { channel: 'web', category: 'home', sku: 'LAMP-204' }),
    purchase('ST-104471', 'demo', shoes, '120.50', { channel: 'store', category: 'shoes', store: 'Paris Opéra', sku: 'SNK-311' }),
    {
      id: 'LMS-7731',
      type: DEMO_COURSE_TYPE,
      username: 'demo',
      occurredAt: at(pickDay(now, 12, weekday, 16, 40)),
      attributes: { course: 'Customer care basics' },
    },
    {
      id: 'RT-104471',
      type: 'return',
      username: 'demo',
      // Three days after the purchase, in the same store: one item of the two.
      occurredAt: at(new Date(shoes.getTime() + 3 * DAY + 2 * 3_600_000)),
      amount: '40.00',
      currency: 'EUR',
      attributes: { channel: 'store', store: 'Paris Opéra', sku: 'SNK-311' },
      references: { originalEventId: 'ST-104471' },
    },
    purchase('ST-104502', 'demo', pickDay(now, 8, weekday, 12, 15), '36.80', {
      channel: 'store',
      category: 'books',
      store: 'Lyon Part-Dieu',
    }),
    purchase('WEB-58377', 'demo', pickDay(now, 4, weekday, 20, 30), '89.99', { channel: 'web', category: 'bags', sku: 'BAG-118' }),
    purchase('WEB-58420', 'demo', pickDay(now, 1, weekday, 9, 45), '42.00', { channel: 'web', category: 'home', sku: 'MUG-007' }),
    purchase('ST-104388', 'merch', pickDay(now, 9, weekday, 17, 10), '50.00', { channel: 'store', category: 'bags', store: 'Dubai Mall' }),
    purchase('WEB-58399', 'merch', pickDay(now, 2, weekday, 8, 50), '150.00', { channel: 'web', category: 'home', sku: 'RUG-032' }),
  ];
}

/** True when the client keeps an event under this id (its events are its own; another client's id is nobody's). */
async function isKept(db: Db, caller: ApiCaller, id: string): Promise<boolean> {
  try {
    await getEvent(db, caller, id);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return false;
    throw error;
  }
}

/**
 * Adds the demo's event type, earning rules and events to the client (the demo's, acme), then
 * releases the pending points whose day has come as of `now`. Idempotent: what is there already
 * (a type, a rule, an event by its id) is left alone, and the release run releases nothing twice;
 * so a second seeding adds nothing. Not in the seed's transaction: the events are posted through
 * the ledger writer, as every posting is, after the demo's participants are committed.
 */
export async function seedDemoEvents(db: Db, clientId: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - RULES_SINCE_DAYS * DAY);
  const types = await listEventTypes(db, clientId);
  if (!types.some((type) => type.name === DEMO_COURSE_TYPE && type.origin === 'declared'))
    await declareEventType(
      db,
      EDITOR,
      clientId,
      { name: DEMO_COURSE_TYPE, description: 'The learning platform sends it when a participant passes a course' },
      since,
    );
  const existing = new Set((await listRules(db, clientId, now)).map((rule) => rule.id));
  for (const rule of rules(now)) {
    if (!existing.has(rule.id as string)) await createRule(db, EDITOR, clientId, rule, REASON, { now: since });
  }
  const caller = callerOf(clientId);
  for (const event of demoEvents(now)) {
    if (!(await isKept(db, caller, event.id as string))) await recordEvent(db, caller, event, now);
  }
  // The web order of 25 days ago is past its 14 days: released as the daily run would have.
  await releasePendingPoints(db, { clientId, now: () => now });
}
