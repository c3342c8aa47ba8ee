/**
 * A client's background jobs (docs/decisions/064): a row per job with its progress, so it outlives
 * the request and the process that started it; one slot per client, taken by an INSERT on its
 * primary key before any work (so a burst of confirms starts exactly one job); and the lease
 * (lease.ts, shared with the expiry run) that keeps one process at a time on a job and lets another
 * take it over when the holder dies.
 */
export {
  countJobsByState,
  deleteJob,
  deleteSlot,
  findJob,
  findJobById,
  insertJob,
  insertSlot,
  jobIdsIn,
  jobsIdleSince,
  listJobs,
  slotHolder,
  updateJobIf,
  type Job,
} from './jobs-store.ts';
export { takeLease, leaseHolder, type JobLease, type LeaseOptions } from './lease.ts';
export { findLease } from './store.ts';
