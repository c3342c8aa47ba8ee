import type { Selectable } from 'kysely';

/** A single-use link an administrator opens to act as one participant (docs/decisions/025). */
export interface LaunchTokensTable {
  id: string;
  /** sha-256 of the token; the token itself is shown once. */
  token_hash: string;
  client_id: string;
  participant_id: string;
  /** Why, e.g. a support ticket; required. */
  reason: string;
  /** The operator (CLI) or the admin key's name (API). */
  issued_by: string;
  /** cli | api */
  issued_via: string;
  /** Host of the operator's machine, or the API caller's address. */
  issued_from: string | null;
  issued_at: string;
  expires_at: string;
  used_at: string | null;
  used_from: string | null;
  session_hash: string | null;
}
export type LaunchToken = Selectable<LaunchTokensTable>;

/** A support desk's key to the admin API; only its hash is kept. */
export interface AdminKeysTable {
  /** The public part of the key (rk_<id>_<secret>): looked up first, then the secret compared. */
  id: string;
  name: string;
  key_hash: string;
  /** The one client it may act on; null: every client. */
  client_id: string | null;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}
export type AdminKey = Selectable<AdminKeysTable>;
