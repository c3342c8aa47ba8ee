import type { Selectable } from 'kysely';

/** A password reset link (docs/decisions/018-account-lifecycle.md): works once, until it expires or a newer one voids it. */
export interface PasswordResetsTable {
  /** SHA-256 (base64url) of the link's 256-bit secret; the secret itself is never stored. */
  token_hash: string;
  client_id: string;
  participant_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Set when a newer link for the same participant replaced this one. */
  voided_at: string | null;
}
export type PasswordReset = Selectable<PasswordResetsTable>;
