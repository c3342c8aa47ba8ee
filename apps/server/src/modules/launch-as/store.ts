import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AdminKey, LaunchToken } from './tables.ts';

type Executor = Kysely<Database>;

export async function insertLaunchToken(db: Executor, row: LaunchToken): Promise<void> {
  await db.insertInto('launch_tokens').values(row).execute();
}

export async function findLaunchToken(db: Executor, clientId: string, tokenHash: string): Promise<LaunchToken | undefined> {
  return db
    .selectFrom('launch_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/**
 * Marks the token used, only if nobody has and it is still valid: of two concurrent posts of the
 * same token exactly one updates the row. True when this caller won.
 */
export async function claimLaunchToken(db: Executor, clientId: string, id: string, now: string, from: string): Promise<boolean> {
  const result = await db
    .updateTable('launch_tokens')
    .set({ used_at: now, used_from: from })
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setLaunchSession(db: Executor, id: string, sessionHash: string): Promise<void> {
  await db.updateTable('launch_tokens').set({ session_hash: sessionHash }).where('id', '=', id).execute();
}

/** Who opened a launched session, and as which participant: for the audit of what that session opens. */
export async function findLaunchBySession(db: Db, clientId: string, sessionHash: string) {
  return db
    .selectFrom('launch_tokens')
    .select(['id as tokenId', 'issued_by as issuedBy', 'participant_id as participantId'])
    .where('client_id', '=', clientId)
    .where('session_hash', '=', sessionHash)
    .executeTakeFirst();
}

export async function insertAdminKey(db: Executor, row: AdminKey): Promise<void> {
  await db.insertInto('admin_keys').values(row).execute();
}

export async function findAdminKey(db: Executor, id: string): Promise<AdminKey | undefined> {
  return db.selectFrom('admin_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findAdminKeyByName(db: Executor, name: string): Promise<AdminKey | undefined> {
  return db.selectFrom('admin_keys').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function listAdminKeys(db: Executor): Promise<AdminKey[]> {
  return db.selectFrom('admin_keys').selectAll().orderBy('name').execute();
}

export async function revokeAdminKey(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('admin_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function touchAdminKey(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('admin_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}
