/** A background job's lease (migration 026, docs/decisions/057): one process holds it until expires_at. */
export interface JobLeasesTable {
  /** The job, e.g. "expiry". */
  name: string;
  /** Who holds it: host, process id and a random part, new for each start. */
  holder: string;
  expires_at: string;
}
