/** Events in (migration 042, decision 097). */

/** One event a client's system sent, taken once per client and its id, with what it earned. */
export interface ParticipantEventsTable {
  client_id: string;
  /** The client's own id of the event. */
  id: string;
  /** SHA-256 (hex) of the event as normalised: a repeat under the id is compared by it. */
  body_hash: string;
  type: string;
  participant_id: string;
  /** The participant's username as stored when the event came. */
  username: string;
  /** ISO UTC instant. */
  occurred_at: string;
  received_at: string;
  /** A decimal string as sent (trimmed); null: none. */
  amount: string | null;
  currency: string | null;
  /** JSON object of strings; null: none. */
  attributes: string | null;
  /** JSON object of strings (`references` is a reserved word in SQL); null: none. */
  refs: string | null;
  /** Points credited to the balance. */
  points: number;
  /** Points held pending (§3 releases them). */
  pending_points: number;
  /** The API key that sent it. */
  key_id: string;
}

/** What one rule earned on an event, by its version; pending lines are not credited yet. */
export interface ParticipantEventLinesTable {
  client_id: string;
  event_id: string;
  /** The line's place in the engine's order (priority). */
  line: number;
  rule_id: string;
  rule_version: number;
  name: string;
  kind: string;
  points: number;
  /** 1: the points wait until available_at (the rule's pendingDays), not spendable. */
  pending: number;
  available_at: string | null;
  /** The ledger entry that credited the points; null for a pending line or 0 points. */
  entry_id: string | null;
  calculation: string;
  /** JSON array of the engine's trims (cap, budget, best…). */
  trims: string;
}
