import type { Db } from '../../db/database.ts';
import type { PasswordReset } from './tables.ts';
import type { SearchKeyColumns } from '../participants/search-keys.ts';
import type { Locator } from './characteristics.ts';

/** The participant an activation's unique fact names, whatever their status. */
export async function findParticipantByLocator(db: Db, clientId: string, locator: { field: Locator; value: string }) {
  const column = locator.field === 'accountNumber' ? 'account_number' : 'username_key';
  return db.selectFrom('participants').selectAll().where('client_id', '=', clientId).where(column, '=', locator.value).executeTakeFirst();
}

/** Whether another participant of the client already has this username key. */
export async function usernameTakenByOther(db: Db, clientId: string, key: string, participantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('participants')
    .select('id')
    .where('client_id', '=', clientId)
    .where('username_key', '=', key)
    .where('id', '!=', participantId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Pending → active with its password, username (and the search keys made with it) and privacy
 * acknowledgement; false if it was no longer pending.
 */
export async function activateParticipant(
  db: Db,
  clientId: string,
  participantId: string,
  change: { passwordHash: string; username: string; usernameKey: string; searchKeys: SearchKeyColumns; privacyAckVersion: number },
): Promise<boolean> {
  const result = await db
    .updateTable('participants')
    .set({
      password_hash: change.passwordHash,
      username: change.username,
      username_key: change.usernameKey,
      ...change.searchKeys,
      privacy_ack_version: change.privacyAckVersion,
      status: 'active',
      updated_at: new Date().toISOString(),
    })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Participants of the client with this e-mail address (ignoring case), oldest first. */
export async function findParticipantsByEmail(db: Db, clientId: string, email: string) {
  return db
    .selectFrom('participants')
    .select(['id', 'username', 'status', 'locale', 'email'])
    .where('client_id', '=', clientId)
    .where((eb) => eb(eb.fn('lower', [eb.ref('email')]), '=', email.toLowerCase()))
    .orderBy('created_at')
    .orderBy('username_key')
    .execute();
}

/** The participant with this username and e-mail address (both ignoring case). */
export async function findParticipantByUsernameAndEmail(db: Db, clientId: string, key: string, email: string) {
  return db
    .selectFrom('participants')
    .select(['id', 'username', 'status', 'locale', 'email', 'email_changed_by_staff_at'])
    .where('client_id', '=', clientId)
    .where('username_key', '=', key)
    .where((eb) => eb(eb.fn('lower', [eb.ref('email')]), '=', email.toLowerCase()))
    .executeTakeFirst();
}

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
 * Stores a new link's hash for `participantId` if that is a participant of the client: the same
 * statement whether or not anybody matched; a miss names a random id and so writes no row
 * (decision 018). A new link is never used or voided.
 */
export async function insertResetFor(
  db: Db,
  reset: Pick<PasswordReset, 'token_hash' | 'client_id' | 'participant_id' | 'created_at' | 'expires_at'>,
): Promise<void> {
  await db
    .insertInto('password_resets')
    .columns(['token_hash', 'client_id', 'participant_id', 'created_at', 'expires_at'])
    .expression(
      db
        .selectFrom('participants')
        .select((eb) => [
          eb.cast<string>(eb.val(reset.token_hash), 'text').as('token_hash'),
          'client_id',
          'id',
          eb.cast<string>(eb.val(reset.created_at), 'text').as('created_at'),
          eb.cast<string>(eb.val(reset.expires_at), 'text').as('expires_at'),
        ])
        .where('client_id', '=', reset.client_id)
        .where('id', '=', reset.participant_id),
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
