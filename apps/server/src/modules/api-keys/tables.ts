import type { Selectable } from 'kysely';

/** A client's key to the program API (docs/decisions/083); only the secret's sha-256 is kept. */
export interface ApiKeysTable {
  /** 12 hex characters, the public part of the key (`rk_live_<id>_<secret>`): looked up first, then the secret compared. */
  id: string;
  client_id: string;
  /** Unique per client among keys not revoked. */
  name: string;
  /** The key's visible start (`rk_live_<id>`), what lists show and secret scanners match. */
  prefix: string;
  secret_hash: string;
  /** JSON array of scopes (guard.ts API_SCOPES). */
  scopes: string;
  /** The bucket's refill, tokens per second (may be fractional). */
  rate_per_second: number;
  /** The bucket's size: how many calls may come at once. */
  burst: number;
  created_by: string;
  created_at: string;
  /** Updated at most about once a minute. */
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
  revoke_reason: string | null;
}
export type ApiKey = Selectable<ApiKeysTable>;

/** A key's token bucket: taken by one conditional UPDATE … RETURNING (store.ts takeToken). */
export interface ApiKeyBucketsTable {
  key_id: string;
  tokens: number;
  /** Milliseconds since the epoch (a number, so SQL computes the refill from it). */
  refilled_at_ms: number;
}

/** The first use of each scope by a key, so that use is audited once. */
export interface ApiKeyScopeUsesTable {
  key_id: string;
  scope: string;
  first_used_at: string;
}
