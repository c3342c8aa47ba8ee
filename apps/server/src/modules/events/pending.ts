import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import { dayIn } from '../expiry/policy.ts';
import { openPendingLines } from './store.ts';

/**
 * Pending points (issue 32 §3, docs/decisions/098): when a pending line becomes spendable, in the
 * client's calendar. The release run releases a line on the first client day that begins at or
 * after its `available_at` (the end of the rule's pendingDays): never inside the return window,
 * and on a day the participant can be told. This file is what the participants' user data asks of
 * the events (it imports nothing of the participants, so no cycle).
 */

/** Release days the user data lists, soonest first. */
export const RELEASE_DAYS_SHOWN = 5;
/** Open pending lines read for the user data: far more than five days' worth for any participant. */
const OPEN_LINES_READ = 1_000;

/** The next calendar day of a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/**
 * The client's day on which a line available at this instant is released: that instant's day if
 * it is the day's first moment, else the next day.
 */
export function releaseDayOf(availableAt: string, timeZone: string): string {
  const key = `${timeZone}\u0000${availableAt}`;
  let day = releaseDays.get(key);
  if (day === undefined) {
    const instant = new Date(availableAt);
    const own = dayIn(instant, timeZone);
    day = dayIn(new Date(instant.getTime() - 1), timeZone) === own ? nextDay(own) : own;
    releaseDays.set(key, day);
  }
  return day;
}

/**
 * Release days already worked out: two time-zone conversions a line cost more than GET user's own
 * read, and a participant's pending lines are read on each of their requests while they wait. Never
 * stale (an instant's day in a zone does not change); ~100 bytes an entry, so at most ~1 MB.
 */
const releaseDays = new LRUCache<string, string>({ max: 10_000 });

/** The participant's pending points by the day they become available, soonest first, at most RELEASE_DAYS_SHOWN days. */
export async function pendingReleases(
  db: Db,
  clientId: string,
  participantId: string,
  timeZone: string,
): Promise<Array<{ points: number; availableOn: string }>> {
  const byDay = new Map<string, number>();
  for (const line of await openPendingLines(db, clientId, participantId, OPEN_LINES_READ)) {
    const points = Number(line.points) - Number(line.reversed_points);
    if (points <= 0 || line.available_at === null) continue;
    const day = releaseDayOf(line.available_at, timeZone);
    if (!byDay.has(day) && byDay.size === RELEASE_DAYS_SHOWN) break;
    byDay.set(day, (byDay.get(day) ?? 0) + points);
  }
  return [...byDay].map(([availableOn, points]) => ({ points, availableOn }));
}
