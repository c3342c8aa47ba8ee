import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SearchKeyColumns } from './search-keys.ts';

/**
 * What other modules ask of participants' rows (issue 30 §3): the account's activation and
 * forgotten details, a new password, a balance for a partner's debit, the reports' and the
 * backup's counts. Offered through service.ts; a transaction is passed where the caller's
 * write spans modules.
 */

/** A database or a transaction. */
type Q = Kysely<Database>;

/** The participant an activation's unique fact names, whatever their status. */
export async function findParticipantByUniqueKey(db: Q, clientId: string, column: 'account_number' | 'username_key', value: string) {
  return db.selectFrom('participants').selectAll().where('client_id', '=', clientId).where(column, '=', value).executeTakeFirst();
}

/** Whether another participant of the client already has this username key. */
export async function usernameTakenByOther(db: Q, clientId: string, key: string, participantId: string): Promise<boolean> {
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
  db: Q,
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
export async function findParticipantsByEmail(db: Q, clientId: string, email: string) {
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
export async function findParticipantByUsernameAndEmail(db: Q, clientId: string, key: string, email: string) {
  return db
    .selectFrom('participants')
    .select(['id', 'username', 'status', 'locale', 'email', 'email_changed_by_staff_at'])
    .where('client_id', '=', clientId)
    .where('username_key', '=', key)
    .where((eb) => eb(eb.fn('lower', [eb.ref('email')]), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** The new hash replaces the old one; only this client's participant is touched. */
export async function setPasswordHash(db: Q, clientId: string, participantId: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('participants')
    .set({ password_hash: passwordHash })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .execute();
}

/**
 * A participant's username as a subquery of another module's statement, keyed by its columns
 * (`clientIdColumn`, `participantIdColumn`: references of the outer query), null when none: the
 * codes of a print run name who redeemed each, in one statement, without naming this table.
 */
export function usernameOf(db: Q, clientIdColumn: string, participantIdColumn: string) {
  return db
    .selectFrom('participants as named')
    .select('named.username')
    .where('named.id', '=', sql.ref<string>(participantIdColumn))
    .where('named.client_id', '=', sql.ref<string>(clientIdColumn));
}

/** The participant's cached balance (and name), read in the caller's transaction. */
export async function participantBalance(db: Q, clientId: string, participantId: string) {
  return db
    .selectFrom('participants')
    .select(['id', 'balance', 'username'])
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .executeTakeFirst();
}

/** How many participants of the client are in each status. */
export async function participantsByStatus(db: Q, clientId: string): Promise<Array<{ status: string; count: number }>> {
  const rows = await db
    .selectFrom('participants')
    .select(['status', sql<string>`count(*)`.as('count')])
    .where('client_id', '=', clientId)
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.count ?? 0) }));
}

/** The sum of every participant's balance, of every client: what the ledger owes. */
export async function pointsOwed(db: Q): Promise<number> {
  const row = await db
    .selectFrom('participants')
    .select((eb) => eb.fn.sum<string | number | null>('balance').as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}
