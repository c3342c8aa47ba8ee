import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { API_KEY_PREFIX, API_SCOPES, type ApiScope } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { ApiKey } from './tables.ts';
import { recordAudit } from '../audit/service.ts';
import { apiKeyErrors } from './errors.ts';
import { bearerOf, parseApiKey, sameHash, sha256 } from './secrets.ts';
import { scopesOf } from './service.ts';
import { findApiKey, readBucket, recordScopeUse, takeToken, touchApiKey } from './store.ts';
import { badKeyThrottle, type BadKeyThrottle } from '../limits/bad-key-throttle.ts';

export { API_SCOPES, type ApiScope };

/** Who calls, as the key says: the client comes from the key, never from the request. */
export interface ApiCaller {
  keyId: string;
  clientId: string;
  keyName: string;
  scopes: readonly ApiScope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The program API's caller, set by requireApiKey. */
    apiCaller?: ApiCaller;
  }
}

/** last_used_at moves at most this often per key: a sync of thousands of calls writes it once a minute. */
const TOUCH_EVERY_MS = 60_000;
const MAX_REMEMBERED_SCOPE_USES = 10_000;
// Compared against when the key id is unknown, so an unknown id costs the same as a wrong secret.
const DECOY_HASH = sha256('decoy');
const REALM = 'Bearer realm="rewards"';

interface GuardState {
  throttle: BadKeyThrottle;
  /** "<key id> <scope>" pairs whose first use is recorded: the row is written once, then never looked at again here. */
  scopesSeen: Set<string>;
}
// One per database, shared by every route's hook: a bad key counts wherever it was tried.
const states = new WeakMap<Db, GuardState>();

function stateOf(db: Db): GuardState {
  let state = states.get(db);
  if (!state) {
    state = { throttle: badKeyThrottle(apiKeyErrors.throttled), scopesSeen: new Set() };
    states.set(db, state);
  }
  return state;
}

/**
 * onRequest hook of a program API route (docs/decisions/083), before the body is read:
 * - 401 with `www-authenticate: Bearer` without a valid, unrevoked bearer key (one answer for
 *   every way of being wrong; bad keys from one address are throttled, 429);
 * - 403 when the key lacks `scope`;
 * - 429 with `Retry-After` (whole seconds until a token) when the key's bucket is empty: one
 *   token is taken atomically in the database before the work;
 * then sets `request.apiCaller`. The first use of each scope by a key is audited once.
 */
export function requireApiKey(db: Db, scope: ApiScope): onRequestAsyncHookHandler {
  const state = stateOf(db);
  return async function apiKeyGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    request.apiCaller = undefined;
    const key = await authenticate(db, state.throttle, request, reply);
    const scopes = scopesOf(key);
    if (!scopes.includes(scope)) {
      reply.header('www-authenticate', `${REALM}, error="insufficient_scope", scope="${scope}"`);
      throw apiKeyErrors.scopeMissing(scope);
    }
    const rate = Number(key.rate_per_second);
    const burst = Number(key.burst);
    const nowMs = Date.now();
    if (!(await takeToken(db, key.id, nowMs, rate, burst))) {
      reply.header('retry-after', String(await secondsUntilToken(db, key.id, nowMs, rate, burst)));
      throw apiKeyErrors.rateLimited();
    }
    const now = new Date(nowMs);
    if (key.last_used_at === null || Date.parse(key.last_used_at) <= nowMs - TOUCH_EVERY_MS)
      await touchApiKey(db, key.id, now.toISOString(), new Date(nowMs - TOUCH_EVERY_MS).toISOString());
    await noteScopeUse(db, state, key, scope, now, request.ip);
    request.apiCaller = { keyId: key.id, clientId: key.client_id, keyName: key.name, scopes };
  };
}

/**
 * Whether a request's bearer is an API key (by its prefix; valid or not): for a route that takes
 * either an API key or another credential (the admin API's launch tokens, decision 083).
 */
export function carriesApiKey(request: FastifyRequest): boolean {
  const authorization = request.headers.authorization;
  return typeof authorization === 'string' && (bearerOf(authorization)?.startsWith(API_KEY_PREFIX) ?? false);
}

/** For routes after requireApiKey: the caller, or 401 (a route registered without the hook answers so rather than act unauthenticated). */
export function apiCallerOf(request: FastifyRequest): ApiCaller {
  const caller = request.apiCaller;
  if (!caller) throw apiKeyErrors.invalid();
  return caller;
}

/** The live key the bearer header names, or 401 (counted against the caller's address). */
async function authenticate(db: Db, throttle: BadKeyThrottle, request: FastifyRequest, reply: FastifyReply): Promise<ApiKey> {
  throttle.check(request.ip);
  const authorization = request.headers.authorization;
  const parsed = parseApiKey(bearerOf(typeof authorization === 'string' ? authorization : undefined) ?? '');
  const key = parsed ? await findApiKey(db, parsed.id) : undefined;
  const matches = parsed !== undefined && sameHash(sha256(parsed.secret), key?.secret_hash ?? DECOY_HASH);
  if (key && matches && key.revoked_at === null) return key;
  throttle.recordFailure(request.ip);
  // RFC 6750 §3: no error code when no credentials came at all.
  reply.header('www-authenticate', authorization === undefined ? REALM : `${REALM}, error="invalid_token"`);
  throw apiKeyErrors.invalid();
}

/** Whole seconds until the bucket holds a token again, at least 1 (read after the refusal; only advice). */
async function secondsUntilToken(db: Db, keyId: string, nowMs: number, rate: number, burst: number): Promise<number> {
  const bucket = await readBucket(db, keyId);
  if (!bucket) return 1;
  const level = Math.min(burst, bucket.tokens + (Math.max(0, nowMs - bucket.refilledAtMs) * rate) / 1000);
  return Math.max(1, Math.ceil((1 - level) / rate));
}

/** Audits a key's first use of a scope, once ever: the row decides between processes, the memo spares the write after. */
async function noteScopeUse(db: Db, state: GuardState, key: ApiKey, scope: ApiScope, now: Date, address: string): Promise<void> {
  const memo = `${key.id} ${scope}`;
  if (state.scopesSeen.has(memo)) return;
  await db.transaction().execute(async (trx) => {
    if (!(await recordScopeUse(trx, key.id, scope, now.toISOString()))) return;
    await recordAudit(
      trx,
      {
        clientId: key.client_id,
        actor: key.name,
        actorKind: 'api-key',
        action: 'api-keys.scope-first-used',
        subject: scope,
        details: { id: key.id, prefix: key.prefix, scope },
        origin: address,
      },
      now,
    );
  });
  if (state.scopesSeen.size >= MAX_REMEMBERED_SCOPE_USES) state.scopesSeen.clear();
  state.scopesSeen.add(memo);
}
