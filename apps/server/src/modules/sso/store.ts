import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { SsoLoginsTable } from './tables.ts';

// SQL of single sign-on; every query names the client.

export async function findClientSso(db: Db, clientId: string) {
  return db.selectFrom('client_sso').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export interface ClientSsoRow {
  issuer: string;
  oidcClientId: string;
  clientSecretEnc: string;
  scopes: string;
  claim: string;
}

export async function upsertClientSso(trx: Kysely<Database>, clientId: string, row: ClientSsoRow, now: string): Promise<void> {
  const values = {
    issuer: row.issuer,
    oidc_client_id: row.oidcClientId,
    client_secret_enc: row.clientSecretEnc,
    scopes: row.scopes,
    claim: row.claim,
    enabled: 1,
    updated_at: now,
  };
  const updated = await trx.updateTable('client_sso').set(values).where('client_id', '=', clientId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await trx
      .insertInto('client_sso')
      .values({ client_id: clientId, ...values })
      .execute();
}

export async function disableClientSso(trx: Kysely<Database>, clientId: string, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('client_sso')
    .set({ enabled: 0, updated_at: now })
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type NewSsoLogin = Insertable<SsoLoginsTable>;

export async function insertSsoLogin(db: Db, login: NewSsoLogin): Promise<void> {
  await db.insertInto('sso_logins').values(login).execute();
}

/** The sign-in of a state, deleted in the same step: only the caller whose delete counted gets it. */
export async function takeSsoLogin(db: Db, clientId: string, state: string) {
  const row = await db.selectFrom('sso_logins').selectAll().where('state', '=', state).where('client_id', '=', clientId).executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('sso_logins').where('state', '=', state).where('client_id', '=', clientId).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? row : undefined;
}

export async function insertHandoff(
  db: Db,
  handoff: {
    id_hash: string;
    client_id: string;
    participant_id: string;
    created_at: string;
    expires_at: string;
    id_token_sealed: string | null;
  },
): Promise<void> {
  await db.insertInto('sso_handoffs').values(handoff).execute();
}

/** Single use, like takeSsoLogin: two requests with one id, one of them wins. */
export async function takeHandoff(db: Db, clientId: string, idHash: string) {
  const row = await db
    .selectFrom('sso_handoffs')
    .selectAll()
    .where('id_hash', '=', idHash)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('sso_handoffs').where('id_hash', '=', idHash).where('client_id', '=', clientId).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? row : undefined;
}

/**
 * Sign-ins never finished, hand-offs never used, sign-out hints never fetched and the ID tokens of
 * sessions past their absolute expiry (whose rows wait for a purge): of no use once expired.
 */
export async function deleteExpiredSsoRows(db: Db, now: string): Promise<void> {
  await db.deleteFrom('sso_logins').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sso_handoffs').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sso_signouts').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sso_session_tokens').where('expires_at', '<=', now).execute();
}

/** The sealed ID token of a session single sign-on started (decision 038); deleted with the session by the foreign key. */
export async function insertSessionToken(
  db: Db,
  row: { session_hash: string; client_id: string; id_token_sealed: string; expires_at: string },
): Promise<void> {
  await db.insertInto('sso_session_tokens').values(row).execute();
}

export async function findSessionToken(db: Db, clientId: string, sessionHash: string, now: string) {
  return db
    .selectFrom('sso_session_tokens')
    .select('id_token_sealed')
    .where('session_hash', '=', sessionHash)
    .where('client_id', '=', clientId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertSignout(
  db: Db,
  row: { hint_hash: string; client_id: string; id_token_sealed: string; expires_at: string },
): Promise<void> {
  await db.insertInto('sso_signouts').values(row).execute();
}

/** Single use, like takeSsoLogin. */
export async function takeSignout(db: Db, clientId: string, hintHash: string) {
  const row = await db
    .selectFrom('sso_signouts')
    .selectAll()
    .where('hint_hash', '=', hintHash)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db
    .deleteFrom('sso_signouts')
    .where('hint_hash', '=', hintHash)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? row : undefined;
}
