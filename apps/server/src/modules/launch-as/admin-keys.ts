import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AdminKey } from './tables.ts';
import { recordAudit } from '../audit/service.ts';
import { launchErrors } from './errors.ts';
import { newAdminKey, parseAdminKey, sameHash, sha256 } from './secrets.ts';
import { findAdminKey, findAdminKeyByName, insertAdminKey, listAdminKeys, revokeAdminKey } from './store.ts';

/** A key's public face: never the key, never its hash. */
export interface AdminKeyView {
  id: string;
  name: string;
  client: string | null;
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export function viewOf(key: AdminKey): AdminKeyView {
  return {
    id: key.id,
    name: key.name,
    client: key.client_id,
    createdBy: key.created_by,
    createdAt: key.created_at,
    revokedAt: key.revoked_at,
    lastUsedAt: key.last_used_at,
  };
}

export class AdminKeyNameTaken extends Error {}

/** Creates a key and returns it whole, the only time it exists outside the caller's hands. */
export async function createAdminKey(
  trx: Kysely<Database>,
  input: { name: string; clientId: string | null; createdBy: string; origin: string },
  now = new Date(),
): Promise<{ key: string; view: AdminKeyView }> {
  if (await findAdminKeyByName(trx, input.name)) throw new AdminKeyNameTaken(`An admin key named "${input.name}" exists already`);
  const made = newAdminKey();
  const row: AdminKey = {
    id: made.id,
    name: input.name,
    key_hash: made.hash,
    client_id: input.clientId,
    created_by: input.createdBy,
    created_at: now.toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await insertAdminKey(trx, row);
  await recordAudit(
    trx,
    {
      clientId: input.clientId,
      actor: input.createdBy,
      actorKind: 'operator',
      action: 'admins.create',
      subject: input.name,
      details: { id: made.id, scope: input.clientId ?? 'all-clients' },
      origin: input.origin,
    },
    now,
  );
  return { key: made.key, view: viewOf(row) };
}

export async function listKeys(db: Db): Promise<AdminKeyView[]> {
  return (await listAdminKeys(db)).map(viewOf);
}

/** Revokes by name or id; undefined when no such key, `already` when it was revoked before. */
export async function revokeKey(
  trx: Kysely<Database>,
  nameOrId: string,
  revokedBy: string,
  origin: string,
  now = new Date(),
): Promise<{ view: AdminKeyView; already: boolean } | undefined> {
  const key = (await findAdminKeyByName(trx, nameOrId)) ?? (await findAdminKey(trx, nameOrId));
  if (!key) return undefined;
  const revoked = await revokeAdminKey(trx, key.id, now.toISOString());
  if (revoked) {
    await recordAudit(
      trx,
      {
        clientId: key.client_id,
        actor: revokedBy,
        actorKind: 'operator',
        action: 'admins.revoke',
        subject: key.name,
        details: { id: key.id },
        origin,
      },
      now,
    );
  }
  const after = (await findAdminKey(trx, key.id)) ?? key;
  return { view: viewOf(after), already: !revoked };
}

// Compared against when the key id is unknown, so an unknown id costs the same as a wrong secret.
const DECOY_HASH = sha256('decoy');

/** The live key a bearer header names, or 401 (one answer for every way of being wrong). */
export async function authenticateAdminKey(db: Db, authorization: string | undefined): Promise<AdminKey> {
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : undefined;
  const parsed = bearer ? parseAdminKey(bearer) : undefined;
  if (!parsed) throw launchErrors.keyInvalid();
  const key = await findAdminKey(db, parsed.id);
  const matches = sameHash(sha256(parsed.secret), key?.key_hash ?? DECOY_HASH);
  if (!key || !matches || key.revoked_at !== null) throw launchErrors.keyInvalid();
  return key;
}
