import {
  API_SCOPES,
  DEFAULT_BURST,
  DEFAULT_RATE_PER_SECOND,
  MAX_API_KEY_NAME,
  MAX_BURST,
  MAX_RATE_PER_SECOND,
  MIN_RATE_PER_SECOND,
  type ApiKeyView,
  type ApiScope,
} from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { ApiKey } from './tables.ts';
import { recordAudit } from '../audit/service.ts';
import { findClient } from '../clients/service.ts';
import { apiKeyErrors } from './errors.ts';
import { newApiKey } from './secrets.ts';
import { findApiKey, findLiveKeyByName, insertApiKey, insertBucket, listApiKeys, revokeApiKey } from './store.ts';

export type { ApiKeyView, ApiScope } from '@rewards/contract';

/** Who acts: a staff member in the console, or the operator with `rewards api-keys`. */
export type ApiKeyActorKind = 'staff' | 'operator';

export function viewOf(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    client: key.client_id,
    name: key.name,
    prefix: key.prefix,
    scopes: scopesOf(key),
    ratePerSecond: Number(key.rate_per_second),
    burst: Number(key.burst),
    createdBy: key.created_by,
    createdAt: key.created_at,
    lastUsedAt: key.last_used_at,
    revokedAt: key.revoked_at,
    revokedBy: key.revoked_by,
    revokeReason: key.revoke_reason,
  };
}

const KNOWN_SCOPES: ReadonlySet<string> = new Set(API_SCOPES);

/** The key's scopes as stored; anything unknown (a scope a later version removed) is not a power. */
export function scopesOf(key: Pick<ApiKey, 'scopes'>): ApiScope[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key.scopes);
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed.filter((s): s is ApiScope => typeof s === 'string' && KNOWN_SCOPES.has(s)) : [];
}

/** The same rules for the console's body (already checked by the contract), the command's flags and the other parts' tests. */
function checkedInput(input: { name: string; scopes: readonly string[]; ratePerSecond?: number; burst?: number; reason: string }) {
  const name = input.name.trim();
  if (name.length < 1 || name.length > MAX_API_KEY_NAME)
    throw apiKeyErrors.invalidInput(`A key's name has 1 to ${MAX_API_KEY_NAME} characters`);
  if (input.scopes.length === 0) throw apiKeyErrors.invalidInput(`Name at least one scope: ${API_SCOPES.join(', ')}`);
  const unknown = input.scopes.filter((s) => !KNOWN_SCOPES.has(s));
  if (unknown.length > 0) throw apiKeyErrors.invalidInput(`Unknown scope ${unknown.join(', ')}; the scopes are ${API_SCOPES.join(', ')}`);
  // Stored in the list's order, once each, whatever order they were named in.
  const scopes = API_SCOPES.filter((s) => input.scopes.includes(s));
  const ratePerSecond = input.ratePerSecond ?? DEFAULT_RATE_PER_SECOND;
  if (!Number.isFinite(ratePerSecond) || ratePerSecond < MIN_RATE_PER_SECOND || ratePerSecond > MAX_RATE_PER_SECOND)
    throw apiKeyErrors.invalidInput(`The rate is ${MIN_RATE_PER_SECOND} to ${MAX_RATE_PER_SECOND} calls per second`);
  const burst = input.burst ?? DEFAULT_BURST;
  if (!Number.isInteger(burst) || burst < 1 || burst > MAX_BURST)
    throw apiKeyErrors.invalidInput(`The burst is a whole number from 1 to ${MAX_BURST}`);
  const reason = input.reason.trim();
  if (reason.length < 3 || reason.length > 500) throw apiKeyErrors.invalidInput('Give a reason of 3 to 500 characters');
  return { name, scopes, ratePerSecond, burst, reason };
}

/**
 * Makes a key for one client and returns it whole, the only time it exists outside the caller's
 * hands (only the secret's sha-256 is kept). Its bucket starts full. Audited as api-keys.create
 * in the same transaction. 409 when a live key of the client has the name.
 */
export async function createApiKey(
  db: Db,
  input: {
    clientId: string;
    name: string;
    scopes: readonly ApiScope[];
    ratePerSecond?: number;
    burst?: number;
    createdBy: string;
    actorKind: ApiKeyActorKind;
    reason: string;
    origin?: string | null;
  },
  now: Date = new Date(),
): Promise<{ key: string; view: ApiKeyView }> {
  const checked = checkedInput(input);
  if (!(await findClient(db, input.clientId))) throw apiKeyErrors.clientNotFound();
  const made = newApiKey();
  const row: ApiKey = {
    id: made.id,
    client_id: input.clientId,
    name: checked.name,
    prefix: made.prefix,
    secret_hash: made.hash,
    scopes: JSON.stringify(checked.scopes),
    rate_per_second: checked.ratePerSecond,
    burst: checked.burst,
    created_by: input.createdBy,
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
    revoked_by: null,
    revoke_reason: null,
  };
  await db.transaction().execute(async (trx) => {
    // The partial unique index decides between two creates of one name at once; the read only names the error sooner.
    if ((await findLiveKeyByName(trx, input.clientId, checked.name)) || !(await insertApiKey(trx, row)))
      throw apiKeyErrors.nameTaken(checked.name);
    await insertBucket(trx, row.id, checked.burst, now.getTime());
    await recordAudit(
      trx,
      {
        clientId: input.clientId,
        actor: input.createdBy,
        actorKind: input.actorKind,
        action: 'api-keys.create',
        subject: checked.name,
        details: {
          id: row.id,
          prefix: row.prefix,
          scopes: checked.scopes,
          ratePerSecond: checked.ratePerSecond,
          burst: checked.burst,
          reason: checked.reason,
        },
        origin: input.origin ?? null,
      },
      now,
    );
  });
  return { key: made.key, view: viewOf(row) };
}

/** The client's keys, newest first, revoked ones included (what they were, and who ended them). */
export async function listClientApiKeys(db: Db, clientId: string): Promise<ApiKeyView[]> {
  if (!(await findClient(db, clientId))) throw apiKeyErrors.clientNotFound();
  return (await listApiKeys(db, clientId)).map(viewOf);
}

/**
 * Revokes a key of the client at once: its next call is 401. 404 for a key of another client
 * or none; a key revoked already answers as it is (`already`), audited once.
 */
export async function revokeClientApiKey(
  db: Db,
  input: { clientId: string; keyId: string; revokedBy: string; actorKind: ApiKeyActorKind; reason: string; origin?: string | null },
  now: Date = new Date(),
): Promise<{ view: ApiKeyView; already: boolean }> {
  const reason = input.reason.trim();
  if (reason.length < 3 || reason.length > 500) throw apiKeyErrors.invalidInput('Give a reason of 3 to 500 characters');
  return db.transaction().execute(async (trx) => {
    const key = await findApiKey(trx, input.keyId);
    if (!key || key.client_id !== input.clientId) throw apiKeyErrors.notFound();
    const revoked = await revokeApiKey(trx, input.clientId, key.id, { at: now.toISOString(), by: input.revokedBy, reason });
    if (revoked)
      await recordAudit(
        trx,
        {
          clientId: input.clientId,
          actor: input.revokedBy,
          actorKind: input.actorKind,
          action: 'api-keys.revoke',
          subject: key.name,
          details: { id: key.id, prefix: key.prefix, reason },
          origin: input.origin ?? null,
        },
        now,
      );
    const after = (await findApiKey(trx, key.id)) ?? key;
    return { view: viewOf(after), already: !revoked };
  });
}
