/** A background job's lease (migration 026, docs/decisions/057): one process holds it until expires_at. */
export interface JobLeasesTable {
  /** The job, e.g. "expiry". */
  name: string;
  /** Who holds it: host, process id and a random part, new for each start. */
  holder: string;
  expires_at: string;
}

/** A client's background job (migration 028, docs/decisions/064): what, how far, how it ended. */
export interface JobsTable {
  id: string;
  client_id: string;
  /** e.g. "points", "participants" (the imports). */
  kind: string;
  /** staging → previewing → staged → running → done | failed; a previewing or staged job may be discarded (imports/service.ts discardImport). */
  status: string;
  file_name: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  confirmed_by: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** JSON: what the job needs to run (the import's header). */
  params: string;
  /** Units of work in all (an import's data lines) and done so far (while an import is previewed: lines previewed). */
  total: number;
  done: number;
  /** Where a resumed run goes on from (an import: the last line done). */
  cursor: number;
  /** JSON: the preview before confirmation, and the counts of the run. */
  preview: string | null;
  result: string | null;
  error: string | null;
}

/** A client's one running job (migration 028): the primary key is the rule. */
export interface JobSlotsTable {
  client_id: string;
  job_id: string;
  taken_at: string;
}
