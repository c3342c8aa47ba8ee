/**
 * One points posting of the program API (migration 040, decision 085): the client's externalId
 * taken once, the hash of what was asked, the ledger entry made and the reply every repeat gets;
 * the reversal's columns are set once.
 */
export interface ProgramApiPostingsTable {
  client_id: string;
  external_id: string;
  /** SHA-256 (hex) of the request as normalised (participant, points, description, occurredAt, note). */
  body_hash: string;
  participant_id: string;
  /** Signed: a credit is positive, a debit negative. */
  points: number;
  /** The entry's text (the key's fallback): what a reversal names by default. */
  description: string;
  entry_id: string;
  /** The API key that posted it. */
  key_id: string;
  /** The JSON reply of the posting, answered again to every repeat of the same body. */
  reply: string;
  created_at: string;
  /** Points taken back (a magnitude, at most |points|); null: not reversed. */
  reversed_points: number | null;
  reversal_entry_id: string | null;
  reversed_at: string | null;
}
