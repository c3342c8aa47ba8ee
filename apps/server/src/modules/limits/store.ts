import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { compiledOnce } from '../../db/compiled-once.ts';

type Q = Db | Transaction<Database>;

// The two statements every limited attempt runs, compiled to SQL once (docs/decisions/014).
const upsertSlot = compiledOnce((db: Db, clientId: string, subject: string, max: number, newWindowEndsAt: string, now: string) =>
  db
    .insertInto('attempt_limits')
    .values({ client_id: clientId, subject, taken: 1, window_ends_at: newWindowEndsAt })
    .onConflict((oc) =>
      oc
        .columns(['client_id', 'subject'])
        .doUpdateSet((eb) => {
          const ended = eb('attempt_limits.window_ends_at', '<=', now);
          return {
            taken: eb
              .case()
              .when(ended)
              .then(1)
              .else(eb('attempt_limits.taken', '+', 1))
              .end(),
            window_ends_at: eb.case().when(ended).then(newWindowEndsAt).else(eb.ref('attempt_limits.window_ends_at')).end(),
          };
        })
        .where((eb) => eb.or([eb('attempt_limits.window_ends_at', '<=', now), eb('attempt_limits.taken', '<', max)])),
    )
    .returning('window_ends_at'),
);
const decrementSlot = compiledOnce((db: Db, clientId: string, subject: string, windowEndsAt: string) =>
  db
    .updateTable('attempt_limits')
    .set((eb) => ({ taken: eb('taken', '-', 1) }))
    .where('client_id', '=', clientId)
    .where('subject', '=', subject)
    .where('window_ends_at', '=', windowEndsAt)
    .where('taken', '>', 0),
);

/**
 * Takes one slot of a subject, if one is free, in ONE statement: an upsert whose update only
 * happens while the window has room (or has ended, which starts a new one). PostgreSQL locks
 * the row and re-checks the condition; SQLite has one writer: of any number of parallel
 * callers, at most `max` get a row back, on every process. Returns the end of the window the
 * slot belongs to, or undefined when none was free.
 */
export async function takeSlot(
  db: Q,
  clientId: string,
  subject: string,
  max: number,
  newWindowEndsAt: string,
  now: string,
): Promise<string | undefined> {
  const { rows } = await upsertSlot(db, clientId, subject, max, newWindowEndsAt, now);
  return rows[0]?.window_ends_at;
}

/** Gives a slot back, if its window is still the current one. */
export async function returnSlot(db: Q, clientId: string, subject: string, windowEndsAt: string): Promise<void> {
  await decrementSlot(db, clientId, subject, windowEndsAt);
}

/** Removes subjects' counts. */
export async function deleteSubjects(db: Q, clientId: string, subjects: readonly string[]): Promise<void> {
  if (subjects.length === 0) return;
  await db.deleteFrom('attempt_limits').where('client_id', '=', clientId).where('subject', 'in', subjects).execute();
}

/** The slots taken in live windows of these subjects. */
export async function liveCounts(db: Q, clientId: string, subjects: readonly string[], now: string) {
  if (subjects.length === 0) return [];
  return db
    .selectFrom('attempt_limits')
    .select(['subject', 'taken', 'window_ends_at'])
    .where('client_id', '=', clientId)
    .where('subject', 'in', subjects)
    .where('window_ends_at', '>', now)
    .execute();
}

/** Rows whose window has ended say nothing any more. */
export async function deleteEndedWindows(db: Q, now: string): Promise<void> {
  await db.deleteFrom('attempt_limits').where('window_ends_at', '<=', now).execute();
}

/**
 * Adds `amount` to a subject's count if the total stays within `max`, in ONE statement (the
 * same conditional upsert as takeSlot, by an amount instead of one): of parallel callers on any
 * number of processes, the sum granted never passes `max`. A window that has ended starts again
 * at `amount`. The caller refuses an `amount` above `max` before calling. Returns the window's
 * new total, or undefined when it would not fit.
 */
export async function addToCount(
  db: Q,
  clientId: string,
  subject: string,
  amount: number,
  max: number,
  newWindowEndsAt: string,
  now: string,
): Promise<number | undefined> {
  const row = await db
    .insertInto('attempt_limits')
    .values({ client_id: clientId, subject, taken: amount, window_ends_at: newWindowEndsAt })
    .onConflict((oc) =>
      oc
        .columns(['client_id', 'subject'])
        .doUpdateSet((eb) => {
          const ended = eb('attempt_limits.window_ends_at', '<=', now);
          return {
            taken: eb
              .case()
              .when(ended)
              .then(amount)
              .else(eb('attempt_limits.taken', '+', amount))
              .end(),
            window_ends_at: eb.case().when(ended).then(newWindowEndsAt).else(eb.ref('attempt_limits.window_ends_at')).end(),
          };
        })
        .where((eb) => eb.or([eb('attempt_limits.window_ends_at', '<=', now), eb(eb('attempt_limits.taken', '+', amount), '<=', max)])),
    )
    .returning('taken')
    .executeTakeFirst();
  return row?.taken;
}
