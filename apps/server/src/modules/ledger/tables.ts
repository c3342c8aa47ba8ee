import type { ColumnType, Insertable } from 'kysely';

export interface LedgerEntriesTable {
  id: string;
  client_id: string;
  participant_id: string;
  occurred_at: string;
  description: string;
  amount: number;
  /** award | redemption | adjustment | ots | expiry (docs/decisions/057) */
  kind: string;
  created_at: string;
  /** Translation key of the description, shown in the participant's language (migration 002). */
  description_key: string | null;
  /** JSON of the key's placeholder values. */
  description_params: string | null;
  /** Idempotency key, unique per client: a catalog order or an imported line posts once. */
  reference: string | null;
  /** Why staff or an operator adjusted: never shown to the participant (migration 022, decision 048). */
  internal_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who posted it (staff e-mail, operator name@host); null for imports, codes, orders. */
  posted_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The console form's key, unique per client: a double click posts once. */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export type NewLedgerEntry = Insertable<LedgerEntriesTable>;
