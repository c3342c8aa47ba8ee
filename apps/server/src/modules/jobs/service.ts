/**
 * A client's background jobs (docs/decisions/064): a row per job with its progress, so it outlives
 * the request and the process that started it; one slot per client, taken by an INSERT on its
 * primary key before any work (so a burst of confirms starts exactly one job); and the lease
 * (lease.ts, shared with the expiry run) that keeps one process at a time on a job and lets another
 * take it over when the holder dies.
 */
import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { deleteSlot, insertSlot, slotHolder, updateJobIf, type Job } from './jobs-store.ts';
import type { JobsTable } from './tables.ts';

// What other modules read and write of a job's row, named here (decision 053); the slot's rules
// are the two functions below.
export {
  countJobsByState,
  deleteJob,
  findJob,
  findJobById,
  insertJob,
  jobIdsIn,
  jobsIdleSince,
  listJobs,
  slotHolder,
  updateJobIf,
  updateRunningJobAt,
  type Job,
} from './jobs-store.ts';
export { takeLease, leaseHolder, type JobLease, type LeaseOptions } from './lease.ts';
export { findLease } from './store.ts';

/**
 * Starts a job in the client's one slot, in the caller's transaction: the slot is taken first (an
 * INSERT on the client's key, so of a burst of starts exactly one wins), then the job moves from
 * `from` with `change`. Answers the job holding the slot when it is taken (undefined: the job
 * itself had moved meanwhile); the caller refuses, and its transaction gives the slot back.
 */
export async function startJob(
  trx: Db,
  clientId: string,
  jobId: string,
  from: string,
  change: Updateable<JobsTable>,
  at: Date,
): Promise<{ started: true } | { started: false; holder: Job | undefined }> {
  if (!(await insertSlot(trx, clientId, jobId, at.toISOString()))) return { started: false, holder: await slotHolder(trx, clientId) };
  if (!(await updateJobIf(trx, jobId, from, change))) return { started: false, holder: undefined };
  return { started: true };
}

/** Ends a job that is still `from` with `change` and frees the client's slot, in the caller's transaction; false if it had moved. */
export async function finishJob(trx: Db, clientId: string, jobId: string, from: string, change: Updateable<JobsTable>): Promise<boolean> {
  if (!(await updateJobIf(trx, jobId, from, change))) return false;
  await deleteSlot(trx, clientId, jobId);
  return true;
}
