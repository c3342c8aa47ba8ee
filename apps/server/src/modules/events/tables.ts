/** Events in (migration 042, decision 097); pending and returns (migration 043, decision 098). */

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
  /** Of an original event: the amount returned so far (cumulative, decimal string); null: none (migration 043, decision 098). */
  returned_amount: string | null;
  /** Of an original event: the points reversed so far by returns, debt included. */
  reversed_points: number;
  /** Of a return: the points it could not take back (the balance was short), a debt the program manager sees. */
  debt_points: number;
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
  /** The event's participant (migration 043): their open pending lines are found by it. */
  participant_id: string | null;
  /** When the release run credited this pending line (entry_id then names the release's entry); null: not released. */
  released_at: string | null;
  /** Of an earning line: the points returns reversed of it so far, debt included. */
  reversed_points: number;
  /** Of a return's line: the points it could not take back. */
  debt_points: number;
}

/**
 * The event types a client's program manager declared (migration 044, decision 100), beside the
 * built-in purchase and return; a type only rules earn on has a row once it is retired. A retired
 * type keeps its row (declaring it again clears retired_*); the audit log keeps the history.
 */
export interface ClientEventTypesTable {
  client_id: string;
  /** Lower-case dotted words (course.completed), at most 64 characters. */
  name: string;
  /** What the client's system sends under it, in the program manager's words; '' for none. */
  description: string;
  /** When and by whom it was (last) declared; null for a type only rules declared, retired. */
  declared_at: string | null;
  declared_by: string | null;
  /** Retired: events of the type are refused from then on; null: in use. */
  retired_at: string | null;
  retired_by: string | null;
  retired_reason: string | null;
}
