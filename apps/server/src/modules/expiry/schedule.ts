import type { ExpiryPolicy, ExpiryScheduleReply } from '@rewards/contract';
import { addMonths, dayIn, parsePolicy } from './policy.ts';
import type { Db } from '../../db/database.ts';
import { findClient } from '../clients/service.ts';
import type { Client } from '../clients/tables.ts';
import { lastActivityAt } from '../ledger/service.ts';
import { openLotsByDay, type OpenLots } from './schedule-store.ts';

/**
 * What of a participant's balance expires when (issue 19, docs/decisions/061): the schedule the
 * history shows, the line on home, and what the reminder mails list. Days are calendar days in
 * the client's time zone; points expire at the end of theirs.
 */

/** How far ahead the schedule looks, in months. */
export const SCHEDULE_MONTHS = 12;

const asUtc = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The day `days` days after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  const date = asUtc(day);
  date.setUTCDate(date.getUTCDate() + days);
  return dayOf(date);
}

// One reading of a stored policy and one calendar, shared with the run (policy.ts).
export { addMonths, dayIn, parsePolicy } from './policy.ts';
/** The client's policy; a row that does not read as one is treated as none (nothing expires) rather than failing a page. */
export const policyOf = (client: Pick<Client, 'expiry_policy'>): ExpiryPolicy => parsePolicy(client.expiry_policy);

/** One day's expiry: the points of the participant's open lots that expire at its end. */
export interface Expiry {
  date: string;
  points: number;
}

export interface ScheduleScope {
  clientId: string;
  participantId: string;
  policy: ExpiryPolicy;
  timeZone: string;
  /** Today in the client's time zone: points expiring at its end are still shown. */
  today: string;
  /** The last day looked at, inclusive. */
  until: string;
}

/**
 * The expiries of one participant from `today` to `until`, soonest first, one row per day
 * (expiriesFromLots says how); under an inactivity policy counted from their last earning or spending.
 */
export async function expiriesOf(db: Db, scope: ScheduleScope): Promise<Expiry[]> {
  const inactive = scope.policy.type === 'inactivity' ? (await inactivityClock(db, scope, scope.policy.months))?.day : undefined;
  const lots = (await openLotsByDay(db, scope.clientId, [scope.participantId])).get(scope.participantId) ?? [];
  return expiriesFromLots(lots, inactive, scope.today, scope.until);
}

/**
 * What of a participant's open lots (summed per expiry day, null: no date of its own) expires
 * from `today` to `until`, one row per day, soonest first: each dated lot's remainder on its
 * date; under an inactivity policy the lots without a date (and the dated ones due later, since
 * the whole balance goes) on `inactivityDay`, if nothing happens before. Points already due that
 * the daily run has not taken yet show as expiring today: they are about to go. Pure: the
 * participant's schedule and the operator's forecast both count this way.
 */
export function expiriesFromLots(lots: readonly OpenLots[], inactivityDay: string | undefined, today: string, until: string): Expiry[] {
  const inactive = inactivityDay === undefined ? undefined : inactivityDay < today ? today : inactivityDay;
  // Dated lots up to the inactivity day: after it, they go with the rest of the balance.
  const datedUntil = inactive !== undefined && inactive < until ? inactive : until;
  const byDay = new Map<string, number>();
  const add = (date: string, points: number) => byDay.set(date, (byDay.get(date) ?? 0) + points);
  let rest = 0;
  for (const lot of lots) {
    if (lot.date !== null && lot.date <= datedUntil) add(lot.date < today ? today : lot.date, lot.points);
    else if (inactive !== undefined && (lot.date === null || lot.date > inactive)) rest += lot.points;
  }
  if (inactive !== undefined && inactive <= until && rest > 0) add(inactive, rest);
  return [...byDay]
    .filter(([, points]) => points > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, points]) => ({ date, points }));
}

/**
 * The inactivity clock: when the participant last earned or spent (an ISO instant), and the day
 * the balance expires if nothing happens before, N months after that day in the client's zone;
 * undefined when the participant never did either.
 */
export async function inactivityClock(
  db: Db,
  scope: Pick<ScheduleScope, 'clientId' | 'participantId' | 'timeZone'>,
  months: number,
): Promise<{ day: string; lastActivity: string } | undefined> {
  const last = await lastActivityAt(db, scope.clientId, scope.participantId);
  if (last === undefined) return undefined;
  const at = new Date(last);
  if (Number.isNaN(at.getTime())) return undefined;
  return { day: addMonths(dayIn(at, scope.timeZone), months), lastActivity: at.toISOString() };
}

/**
 * GET user/points/expiring: the signed-in participant's own expiries over the coming twelve
 * months. Reading changes nothing, so a launched (admin-as-user) session may read it too.
 */
export async function getExpirySchedule(
  db: Db,
  session: { client_id: string; participant_id: string },
  now = new Date(),
): Promise<ExpiryScheduleReply> {
  const client = await findClient(db, session.client_id);
  if (!client) return { expiries: [] };
  const policy = policyOf(client);
  const today = dayIn(now, client.time_zone);
  const expiries = await expiriesOf(db, {
    clientId: client.id,
    participantId: session.participant_id,
    policy,
    timeZone: client.time_zone,
    today,
    until: addMonths(today, SCHEDULE_MONTHS),
  });
  return { expiries };
}
