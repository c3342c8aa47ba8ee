import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ApiError } from '../../http/api-error.ts';
import { isDaily, participantLimits, type LimitPolicy } from './policy.ts';
import { addToCount, deleteEndedWindows, deleteSubjects, liveCounts, returnSlot, takeSlot } from './store.ts';

/** A limited subject: at most `max` slots per window of `windowMinutes`. */
export interface Limit {
  subject: string;
  max: number;
  windowMinutes: number;
}

/** The slots one attempt took, to give back if it turns out not to count. */
export interface Slots {
  clientId: string;
  taken: Array<{ subject: string; windowEndsAt: string }>;
}

type Q = Db | Transaction<Database>;

/** The one order every transaction touches limit rows in, so two never wait for each other in a ring. */
const bySubject = (a: { subject: string }, b: { subject: string }) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0);

const PURGE_EVERY_MS = 60_000;
let lastPurge = 0;

/** Thrown inside the taking transaction to undo the slots already taken in it. */
class NoSlot extends Error {}

/**
 * Takes a slot of every limit before the attempt does its work (decision 040), all or none:
 * one conditional upsert per subject, in one transaction, in subject order (so two attempts
 * never wait on each other's rows in opposite orders). A parallel burst therefore gets at most
 * `max` attempts through per subject, on any number of processes. Throws `refused()` when any
 * subject is full; nothing is taken then.
 */
export async function takeSlots(
  db: Db,
  clientId: string,
  limits: readonly Limit[],
  refused: () => ApiError,
  now = new Date(),
): Promise<Slots> {
  await purgeNowAndThen(db, now);
  try {
    return await db.transaction().execute(async (trx) => {
      const slots = await takeSlotsIn(trx, clientId, limits, now);
      if (!slots) throw new NoSlot();
      return slots;
    });
  } catch (error) {
    if (error instanceof NoSlot) throw refused();
    throw error;
  }
}

/**
 * The same inside a transaction the caller owns (a code redemption takes its slot in the
 * transaction that claims the code). Undefined when a subject is full; the caller then rolls
 * back, or has taken a single subject, where nothing else was written.
 */
export async function takeSlotsIn(
  trx: Transaction<Database>,
  clientId: string,
  limits: readonly Limit[],
  now = new Date(),
): Promise<Slots | undefined> {
  const nowIso = now.toISOString();
  const taken: Slots['taken'] = [];
  for (const limit of [...limits].sort(bySubject)) {
    const newEnd = new Date(now.getTime() + limit.windowMinutes * 60_000).toISOString();
    const windowEndsAt = await takeSlot(trx, clientId, limit.subject, limit.max, newEnd, nowIso);
    if (!windowEndsAt) return undefined;
    taken.push({ subject: limit.subject, windowEndsAt });
  }
  return { clientId, taken };
}

/** An attempt that does not count (a right password, a matching activation) gives its slots back. */
export async function giveBack(db: Q, slots: Slots): Promise<void> {
  for (const slot of slots.taken) await returnSlot(db, slots.clientId, slot.subject, slot.windowEndsAt);
}

/**
 * An attempt that succeeded (a right password, matching activation facts): its slots are given
 * back, and what `forgive` had taken is forgotten. Daily counts are never forgiven this way.
 */
export async function succeeded(db: Db, slots: Slots, forgive: readonly string[] = []): Promise<void> {
  // One transaction (one commit to wait for, not one per subject), touching its rows in subject
  // order as takeSlots does: a forgiven window deleted after its daily twin was updated would
  // wait for a taker holding the window while the taker waits for the twin (a deadlock on PostgreSQL).
  const forgiven = new Set(forgive);
  type Step = { subject: string; windowEndsAt?: string };
  const steps: Step[] = [...[...forgiven].map((subject) => ({ subject })), ...slots.taken.filter((slot) => !forgiven.has(slot.subject))];
  steps.sort(bySubject);
  await db.transaction().execute(async (trx) => {
    for (const { subject, windowEndsAt } of steps) {
      if (windowEndsAt === undefined) await clearLimits(trx, slots.clientId, [subject]);
      else await giveBack(trx, { clientId: slots.clientId, taken: [{ subject, windowEndsAt }] });
    }
  });
}

/** Forgets what these subjects have taken (a right password clears earlier wrong ones; an operator's unlock). */
export async function clearLimits(db: Q, clientId: string, subjects: readonly string[]): Promise<void> {
  await deleteSubjects(db, clientId, subjects);
}

type LimitedParticipant = Parameters<typeof participantLimits>[1] & { client_id: string };

/** Where each limit on a participant stands: slots taken in the live window, of how many. */
export async function participantLimitStanding(db: Q, policy: LimitPolicy, participant: LimitedParticipant, now = new Date()) {
  const named = Object.entries(participantLimits(policy, participant)).flatMap(([name, limits]) =>
    limits.map((limit) => ({ name: isDaily(limit) ? `${name} per day` : name, ...limit })),
  );
  const rows = await liveCounts(
    db,
    participant.client_id,
    named.map((limit) => limit.subject),
    now.toISOString(),
  );
  const taken = new Map(rows.map((row) => [row.subject, { taken: row.taken, until: row.window_ends_at }]));
  return named.map(({ name, subject, max }) => ({
    name,
    taken: taken.get(subject)?.taken ?? 0,
    max,
    until: taken.get(subject)?.until ?? null,
  }));
}

/**
 * An operator's unlock: every limit counting against the participant starts afresh. Returns the
 * attempts cleared (an attempt counted in a window and in its daily twin is one attempt).
 */
export async function unlockParticipant(db: Q, policy: LimitPolicy, participant: LimitedParticipant, now = new Date()): Promise<number> {
  const limits = Object.values(participantLimits(policy, participant));
  const rows = await liveCounts(
    db,
    participant.client_id,
    limits.flat().map((limit) => limit.subject),
    now.toISOString(),
  );
  const taken = new Map(rows.map((row) => [row.subject, row.taken]));
  await deleteSubjects(
    db,
    participant.client_id,
    limits.flat().map((limit) => limit.subject),
  );
  return limits.reduce((sum, twins) => sum + Math.max(0, ...twins.map((limit) => taken.get(limit.subject) ?? 0)), 0);
}

/** Ended windows are deleted about once a minute per process, by whichever attempt comes along. */
async function purgeNowAndThen(db: Db, now: Date): Promise<void> {
  if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now.getTime();
  await deleteEndedWindows(db, now.toISOString());
}

/** A limit on an amount (points) per calendar day, UTC: a support agent's adjustments (decision 048). */
export interface DailyAmount {
  subject: string;
  max: number;
}

/** The end of `now`'s calendar day, UTC: when a daily amount starts again. */
export function endOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
}

/**
 * Takes `amount` of a daily amount in the caller's transaction, before its work, by one
 * conditional upsert: all or nothing, and given back by the transaction's rollback if the work
 * then fails. Undefined when it does not fit (nothing taken); else what is left today.
 */
export async function takeDailyAmountIn(
  trx: Transaction<Database>,
  clientId: string,
  limit: DailyAmount,
  amount: number,
  now = new Date(),
): Promise<number | undefined> {
  if (amount > limit.max) return undefined;
  const total = await addToCount(trx, clientId, limit.subject, amount, limit.max, endOfUtcDay(now), now.toISOString());
  return total === undefined ? undefined : limit.max - total;
}

/** What is left of a daily amount today. */
export async function dailyAmountLeft(db: Q, clientId: string, limit: DailyAmount, now = new Date()): Promise<number> {
  const [row] = await liveCounts(db, clientId, [limit.subject], now.toISOString());
  return Math.max(0, limit.max - (row?.taken ?? 0));
}
