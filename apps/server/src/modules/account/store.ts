import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PasswordReset } from './tables.ts';

/** Voids the participant's links that are still usable: only the newest link works. */
export async function voidOpenResets(db: Db, clientId: string, participantId: string, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ voided_at: now })
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .execute();
}

/**
 * Stores a new link's hash, or on a miss (`matched: false`, a random participant id) nothing: the
 * same statement either way, an `insert … select … where` whose condition is the match
 * (decision 018). The participant's existence is the caller's lookup, and the foreign key's.
 * A new link is never used or voided.
 */
export async function insertResetFor(
  db: Db,
  reset: Pick<PasswordReset, 'token_hash' | 'client_id' | 'participant_id' | 'created_at' | 'expires_at'>,
  matched: boolean,
): Promise<void> {
  await db
    .insertInto('password_resets')
    .columns(['token_hash', 'client_id', 'participant_id', 'created_at', 'expires_at'])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.cast<string>(eb.val(reset.token_hash), 'text').as('token_hash'),
          eb.cast<string>(eb.val(reset.client_id), 'text').as('client_id'),
          eb.cast<string>(eb.val(reset.participant_id), 'text').as('participant_id'),
          eb.cast<string>(eb.val(reset.created_at), 'text').as('created_at'),
          eb.cast<string>(eb.val(reset.expires_at), 'text').as('expires_at'),
        ])
        .where(sql<boolean>`${matched ? 1 : 0} = 1`),
    )
    .execute();
}

export async function findReset(db: Db, clientId: string, tokenHash: string) {
  return db
    .selectFrom('password_resets')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a link used; false when it was used or voided meanwhile (two tabs racing). */
export async function markResetUsed(db: Db, clientId: string, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('client_id', '=', clientId)
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('voided_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Links expired long ago tell nobody anything useful: forgotten after a week. */
export async function deleteResetsExpiredBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('password_resets').where('expires_at', '<', before).execute();
}
