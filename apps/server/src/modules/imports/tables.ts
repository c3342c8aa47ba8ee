/** An uploaded file's record, staged for preview and run (migration 028, docs/decisions/064). */
export interface ImportLinesTable {
  job_id: string;
  /** The file's line number (the header is line 1). */
  line: number;
  /** JSON array of the fields; null when the line was not readable as CSV. */
  fields: string | null;
  problem: string | null;
  /** Points: the external_id; participants: the username key. Repeats within a file are found by it. */
  key: string | null;
  /** Participants: the account number. */
  alt_key: string | null;
}

/** A rejected line of an import's preview or run. */
export interface ImportRejectsTable {
  job_id: string;
  phase: 'preview' | 'run';
  line: number;
  reason: string;
}
