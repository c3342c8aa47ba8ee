import type { ColumnType, Insertable, Selectable } from 'kysely';

export interface ParticipantsTable {
  id: string;
  client_id: string;
  username: string;
  /** Lower-cased username: sign-in ignores case, uniqueness per client. */
  username_key: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  /** active | pending (not yet activated) | inactive */
  status: string;
  locale: string;
  account_number: string;
  offers_merchandise: number;
  offers_experiences: number;
  ots_enabled: number;
  privacy_ack_version: number;
  /** ISO YYYY-MM-DD, an activation fact (migration 015); null: not given by the program. */
  date_of_birth: string | null;
  /** ISO time staff last changed the e-mail address (migration 036, decision 076); null: never. */
  email_changed_by_staff_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Cache of the ledger's sum, updated in the same transaction; null until the first entry. */
  balance: number | null;
  /**
   * Points earned from events and not yet spendable (issue 32 §3, migration 043, decision 098),
   * moved in the same transactions as the events' pending lines (posting, release, return).
   */
  pending_points: ColumnType<number, number | undefined, number>;
  created_at: string;
  /**
   * When what the program API shows of the participant last changed: profile, status, offerings,
   * programs, language (migration 040, decision 085); not the balance or the password. Null on
   * rows written before it or by a writer that does not set it: readers take created_at then.
   */
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Search keys (migration 020, docs/decisions/045): normalised "first last", "last first",
   * username, e-mail and account number, each with the query length up to which it is hidden
   * by an earlier key of the participant; made only by modules/participants/search-keys.ts
   * (`withSearchKeys`). Required on insert so that no writer can leave them out.
   */
  search_first_last: string;
  search_first_last_hidden: number;
  search_last_first: string;
  search_last_first_hidden: number;
  search_username: string;
  search_username_hidden: number;
  search_email: string;
  search_email_hidden: number;
  search_account: string;
  search_account_hidden: number;
}
export type Participant = Selectable<ParticipantsTable>;
export type NewParticipant = Insertable<ParticipantsTable>;

export interface ParticipantProgramsTable {
  client_id: string;
  participant_id: string;
  program_name: string;
  position: number;
}
