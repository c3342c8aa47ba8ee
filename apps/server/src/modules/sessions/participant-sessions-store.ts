import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * A participant's sessions and sign-ins as other modules need them (issue 30 §3): the ones a
 * password change, a status change or an import ends, the live ones the console and the
 * operator show, the last sign-in and the reports' count of recent ones. Offered through
 * service.ts; a transaction is passed where the caller's write spans modules.
 */

/** A database or a transaction. */
type Q = Kysely<Database>;

/** Ends every session of the participant except the one the change was made in. */
export async function deleteOtherSessions(db: Q, clientId: string, participantId: string, keepIdHash: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('id_hash', '!=', keepIdHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of these participants of the client; returns how many. */
export async function deleteSessionsOf(db: Q, clientId: string, participantIds: readonly string[]): Promise<number> {
  if (participantIds.length === 0) return 0;
  const result = await db
    .deleteFrom('sessions')
    .where('client_id', '=', clientId)
    .where('participant_id', 'in', participantIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countLiveSessions(db: Q, clientId: string, participantId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('idle_expires_at', '>', now)
    .where('absolute_expires_at', '>', now)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The participant's newest live sessions, newest first (the console's list). */
export async function openSessions(db: Q, clientId: string, participantId: string, now: string, limit: number) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'last_seen_at', 'idle_expires_at', 'admin_as_user'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('idle_expires_at', '>', now)
    .where('absolute_expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Written by the sessions trigger of migration 023; undefined: not since that migration. */
export async function lastSignIn(db: Q, clientId: string, participantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('participant_sign_ins')
    .select('last_at')
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .executeTakeFirst();
  return row?.last_at;
}

/** How many of the client's participants signed in since `since`. */
export async function signedInSince(db: Q, clientId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('participant_sign_ins')
    .select(sql<string>`count(*)`.as('count'))
    .where('client_id', '=', clientId)
    .where('last_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
