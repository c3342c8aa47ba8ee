/** Slots taken per limited subject in its current window (modules/limits, decision 040). */
export interface AttemptLimitsTable {
  client_id: string;
  /** What is limited, e.g. "sign-in-account:<username_key>" or "sign-in-address:<ip>". */
  subject: string;
  taken: number;
  window_ends_at: string;
}
