// The demo's earning rules and events (issue 32): what `npm start` shows a newcomer, through the
// services, on both engines; seeding again adds nothing; a production database never gets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramEvent } from '@rewards/contract/events';
import { dialects, createTestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { runRewards } from '../../../test/cli.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { listRules } from '../../modules/earning-rules/service.ts';
import { participantEvents } from '../../modules/events/service.ts';
import { listEventTypes } from '../../modules/events/types.ts';
import { DEMO_CLIENT_ID, seedDemoIfEmpty } from './demo.ts';
import { DEMO_COURSE_TYPE, DEMO_EVENT_BALANCE, DEMO_RULE_IDS, demoEvents, pickDay, seedDemoEvents } from './demo-events.ts';

const DAY = 86_400_000;
/** Production, at OWASP's hashing cost: the test runs' cheap one is refused there (decision 088). */
const PRODUCTION = { NODE_ENV: 'production', PASSWORD_HASH_COST: 'owasp' };

describe('the demo events’ days', () => {
  it('fall on the weekday or weekend each needs, in order, whatever the day the seed runs', () => {
    // Four weeks of seed days, at the start and the end of a day, across a month's end.
    for (let hours = 0; hours < 28 * 24; hours += 11) {
      const now = new Date(Date.parse('2027-01-20T00:05:00Z') + hours * 3_600_000);
      const events = demoEvents(now);
      const when = new Map(events.map((e) => [e.id as string, Date.parse(e.occurredAt as string)]));
      for (const [id, at] of when) expect([id, at < now.getTime()]).toEqual([id, true]);
      const weekendDays = events.filter((e) => [0, 6].includes(new Date(e.occurredAt as string).getUTCDay())).map((e) => e.id);
      expect(weekendDays).toEqual(['ST-104471']);
      // The return comes after its purchase; the released web order is past its 14 days, the pending ones are not.
      expect(when.get('RT-104471')! > when.get('ST-104471')!).toBe(true);
      expect(when.get('WEB-58213')! + 14 * DAY).toBeLessThan(now.getTime() - DAY);
      for (const id of ['WEB-58377', 'WEB-58420', 'WEB-58399']) expect(when.get(id)! + 14 * DAY).toBeGreaterThan(now.getTime() + DAY);
    }
    expect(pickDay(new Date('2027-01-20T10:00:00Z'), 0, [3], 9).toISOString()).toBe('2027-01-20T09:00:00.000Z');
    expect(pickDay(new Date('2027-01-20T10:00:00Z'), 1, [6, 0], 9).toISOString()).toBe('2027-01-17T09:00:00.000Z');
  });
});

describe.each(dialects)('the demo program’s events on %s', (dialect) => {
  let t: TestApp;
  const now = new Date();
  beforeAll(async () => {
    // The demo program as a new database gets it (seedDemo, with its events), and a second client.
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const participantId = async (username: string) =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', DEMO_CLIENT_ID)
        .where('username_key', '=', username)
        .executeTakeFirstOrThrow()
    ).id;
  const eventsOf = async (username: string): Promise<Map<string, ProgramEvent>> => {
    const page = await participantEvents(t.database.db, DEMO_CLIENT_ID, await participantId(username), { limit: 50 });
    return new Map(page.events.map((event) => [event.id, event]));
  };
  const entriesOf = async (username: string) =>
    t.database.db
      .selectFrom('ledger_entries')
      .select(['amount', 'description', 'description_key', 'reference', 'kind'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('participant_id', '=', await participantId(username))
      .where((eb) => eb.or([eb('reference', 'like', 'event:%'), eb('reference', 'like', 'release:%')]))
      .orderBy('occurred_at')
      .execute();
  /** Everything the demo's events wrote, counted: a second seeding must leave each number as it is. */
  const counts = async () => {
    const db = t.database.db;
    const count = async (
      table: 'participant_events' | 'participant_event_lines' | 'ledger_entries' | 'earning_rule_versions' | 'audit_log',
    ) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const people = await db
      .selectFrom('participants')
      .select(['username', 'balance', 'pending_points'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .orderBy('username')
      .execute();
    return {
      events: await count('participant_events'),
      lines: await count('participant_event_lines'),
      entries: await count('ledger_entries'),
      versions: await count('earning_rule_versions'),
      audit: await count('audit_log'),
      people,
    };
  };

  it('has the rules of a program manager, each in the client’s three languages, and the declared course type', async () => {
    const rules = await listRules(t.database.db, DEMO_CLIENT_ID);
    expect(rules.map((r) => r.id).sort()).toEqual([...DEMO_RULE_IDS].sort());
    for (const { id, rule } of rules) expect([id, Object.keys(rule.text).sort()]).toEqual([id, ['ar', 'en-US', 'fr-FR']]);
    const rule = (id: string) => rules.find((r) => r.id === id)!.rule;
    const store = rule('store-purchases');
    expect([store.name, store.text['en-US'], store.earn]).toEqual([
      'Store purchases',
      '2 points per euro in store',
      { pointsPer: 2, per: '1.00', currency: 'EUR', rounding: 'down' },
    ]);
    expect(rule('web-orders').pendingDays).toBe(14);
    expect(rule('shoes-and-bags').caps).toEqual({ participant: { points: 300, per: 'month' } });
    const weekend = rule('weekend-double');
    expect([weekend.earn.multiply, weekend.validFrom !== null, weekend.validUntil !== null]).toEqual(['2', true, true]);
    const course = (await listEventTypes(t.database.db, DEMO_CLIENT_ID)).find((type) => type.name === DEMO_COURSE_TYPE);
    expect(course).toMatchObject({ origin: 'declared', retired: null, rules: ['training-courses'] });
  });

  it('gives Dana points pending on days to come in her user data, her balance still 12,500', async () => {
    const dana = await t.login('demo');
    expect(dana.accountBalance).toBe(12_500);
    expect(dana.pendingPoints.points).toBe(131);
    expect(dana.pendingPoints.releases.map((r) => r.points)).toEqual([89, 42]);
    const today = now.toISOString().slice(0, 10);
    for (const release of dana.pendingPoints.releases) expect(release.availableOn > today).toBe(true);
    const mona = await t.login('merch');
    expect([mona.accountBalance, mona.pendingPoints.points, mona.pendingPoints.releases.length]).toEqual([3_250, 150, 1]);
    expect(mona.pendingPoints.releases[0]!.availableOn > today).toBe(true);
  });

  it('keeps the events with their lines: credited, pending, released, and a partial return of an earlier purchase', async () => {
    const dana = await eventsOf('demo');
    expect([...dana.keys()].sort()).toEqual(['LMS-7731', 'RT-104471', 'ST-104471', 'ST-104502', 'WEB-58213', 'WEB-58377', 'WEB-58420']);
    const shoes = dana.get('ST-104471')!;
    expect(shoes.lines.map((l) => [l.ruleId, l.points, l.pending])).toEqual([
      ['store-purchases', 241, false],
      ['shoes-and-bags', 120, false],
      ['weekend-double', 241, false],
    ]);
    expect([shoes.points, shoes.returnedAmount, shoes.reversedPoints]).toEqual([602, '40.00', 199]);
    expect(dana.get('RT-104471')).toMatchObject({ type: 'return', points: -199, references: { originalEventId: 'ST-104471' } });
    const released = dana.get('WEB-58213')!.lines;
    expect(released.map((l) => [l.ruleId, l.points, l.pending, l.releasedAt !== null])).toEqual([['web-orders', 64, true, true]]);
    const bag = dana.get('WEB-58377')!;
    expect(bag.lines.map((l) => [l.ruleId, l.points, l.pending, l.releasedAt])).toEqual([
      ['web-orders', 89, true, null],
      ['shoes-and-bags', 89, false, null],
    ]);
    expect(Date.parse(bag.lines[0]!.availableAt!)).toBeGreaterThan(now.getTime());
    expect(dana.get('LMS-7731')).toMatchObject({
      type: DEMO_COURSE_TYPE,
      points: 150,
      lines: [{ ruleId: 'training-courses', points: 150 }],
    });
    const mona = await eventsOf('merch');
    expect([...mona.values()].map((e) => [e.id, e.points, e.pendingPoints]).sort()).toEqual([
      ['ST-104388', 150, 0],
      ['WEB-58399', 0, 150],
    ]);
  });

  it('writes the history in the rules’ words, and what the events put in each balance', async () => {
    const dana = await entriesOf('demo');
    expect(dana.map((e) => [e.kind, e.amount, e.description])).toEqual(
      expect.arrayContaining([
        [
          'award',
          602,
          'Store purchases: 2 points per euro in store + Shoes and bags: 1 more point per euro on shoes and bags, up to 300 a month + Weekend double points: store points doubled on Saturdays and Sundays',
        ],
        ['award', 64, 'Web orders: 1 point per euro online, yours 14 days after the order'],
        ['award', 150, 'Training courses: 150 points for each course completed'],
      ]),
    );
    const ret = dana.find((e) => e.kind === 'return')!;
    expect([ret.amount, ret.description_key, ret.reference]).toEqual([-199, 'ledger.events.return', 'event:RT-104471']);
    expect(dana.reduce((sum, e) => sum + e.amount, 0)).toBe(DEMO_EVENT_BALANCE.demo);
    expect((await entriesOf('merch')).reduce((sum, e) => sum + e.amount, 0)).toBe(DEMO_EVENT_BALANCE.merch);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('adds nothing when seeded again, the same day or days later', async () => {
    const before = await counts();
    await seedDemoEvents(t.database.db, DEMO_CLIENT_ID, now);
    await seedDemoEvents(t.database.db, DEMO_CLIENT_ID, new Date(now.getTime() + 3 * DAY));
    expect(await seedDemoIfEmpty(t.database.db)).toBe(false);
    expect(await counts()).toEqual(before);
    await expectLedgerMatchesBalances(t.database.db);
  });
});

describe.each(dialects)('a production database on %s', (dialect) => {
  it('never gets the demo’s rules or events: seed-demo refuses, and nothing of them is written', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const seed = await runRewards(database, ['seed-demo'], { env: PRODUCTION });
      expect(seed.code).toBe(2);
      expect(seed.stderr).toContain('never seeded with NODE_ENV=production');
      for (const table of ['clients', 'earning_rules', 'client_event_types', 'participant_events', 'ledger_entries'] as const) {
        const { n } = await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        expect([table, Number(n)]).toEqual([table, 0]);
      }
    } finally {
      await database.drop();
    }
  });
});
