/** Points that expire (migration 025, decision 057). Days are YYYY-MM-DD in the client's time zone. */
export interface PointLotsTable {
  id: string;
  client_id: string;
  participant_id: string;
  /** The credit that made the lot; one lot per credit. */
  entry_id: string;
  earned_on: string;
  /** Expires at the end of this day; null: no date of its own (policy none, or inactivity). */
  expires_on: string | null;
  amount: number;
  /** What is left; 0 once spent or expired. Open lots' remainders sum to the balance. */
  remaining: number;
  created_at: string;
}

/** Which lots a debit or expiry entry consumed, and how much. */
export interface LotConsumptionsTable {
  entry_id: string;
  lot_id: string;
  amount: number;
}

/** A reminder or last chance sent for a lot: each goes once. */
export interface ExpiryNoticesTable {
  lot_id: string;
  /** reminder | lastChance */
  kind: string;
  sent_at: string;
}
