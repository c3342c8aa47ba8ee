import type { Insertable, Selectable } from 'kysely';

type OtsCodeStatus = 'unused' | 'redeemed' | 'void';

/** A code of one client, redeemable once, ever (docs/decisions/008-on-the-spot-codes.md). */
export interface OtsCodesTable {
  id: string;
  client_id: string;
  /** SHA-256 hex of the normalised code: a copy of the database gives no unused code away. */
  code_hash: string;
  /** Last four characters of the normalised code, for operators. */
  code_hint: string;
  /** Points credited, > 0. */
  value: number;
  /** Null: never expires. */
  expires_at: string | null;
  status: OtsCodeStatus;
  redeemed_by: string | null;
  redeemed_at: string | null;
  /** Operator's name for the print run the code came from. */
  batch: string | null;
  created_at: string;
}
export type OtsCode = Selectable<OtsCodesTable>;
export type NewOtsCode = Insertable<OtsCodesTable>;

/** A print run's name, claimed once per client (docs/decisions/063); its codes are ots_codes of that batch. */
export interface OtsBatchesTable {
  client_id: string;
  name: string;
  created_at: string;
}
