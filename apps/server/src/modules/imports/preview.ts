import type { ImportKind } from '@rewards/contract/console-imports';
import type { Db } from '../../db/database.ts';
import { findJobById, takeLease, updateJobIf, type JobLease, type LeaseOptions } from '../jobs/service.ts';
import {
  PREVIEW_CHUNK,
  addCounts,
  emptyImportCounts,
  lineReader,
  previewState,
  readBatch,
  releaseSpace,
  type ImportParams,
} from './service.ts';
import { deleteRejects, deleteStaged, insertRejects } from './store.ts';
import { withJobTuning } from './sqlite-tuning.ts';
import { previewBatch } from './work.ts';
import { eventsPreviewOf } from './events.ts';

/**
 * The import job's first phase (docs/decisions/064, amended): an upload answers once its lines are
 * staged, with the job "previewing"; whoever holds the job's lease (the run's lease: the two phases
 * never overlap, the status says which is due) walks the staged lines PREVIEW_CHUNK at a time
 * through the run's rules, writing nothing but the preview's rejects and its progress, and sets the
 * job "staged" with the counts. A holder that dies leaves the job previewing; the next (after the
 * lease lapsed) starts again from the first line, replacing the rejects, so a preview is computed
 * whole by one holder, never stitched from two.
 */

/** The job's lease, held by its preview and then by its run (run.ts). */
export const importLeaseName = (jobId: string) => `import:${jobId}`;

export interface PreviewOptions extends LeaseOptions {
  batchSize?: number;
  /** Called after each batch (tests stop a "process" here). */
  afterBatch?: (done: number) => void | Promise<void>;
  /** Asked between batches: true ends the preview early, leaving the lease free for another process. */
  stopping?: () => boolean;
}

/**
 * staged: the preview is ready. gone: the job is no longer previewing (discarded meanwhile, or
 * another holder finished it). busy: another holder has the lease. lost: the lease lapsed under us.
 */
export type PreviewEnd = 'staged' | 'failed' | 'busy' | 'not-previewing' | 'gone' | 'stopped' | 'lost';

export async function previewImportJob(db: Db, jobId: string, options: PreviewOptions = {}): Promise<PreviewEnd> {
  const lease = await takeLease(db, importLeaseName(jobId), options);
  if (!lease) return 'busy';
  return withJobTuning(db, () => previewLeased(db, jobId, lease, options));
}

async function previewLeased(db: Db, jobId: string, lease: JobLease, options: PreviewOptions): Promise<PreviewEnd> {
  const now = options.now ?? (() => new Date());
  const job = await findJobById(db, jobId);
  if (!job || job.status !== 'previewing') {
    await lease.end();
    return 'not-previewing';
  }
  const kind = job.kind as ImportKind;
  const params = JSON.parse(job.params) as ImportParams;
  const reader = await lineReader(db, job.client_id, kind, params.header);
  if (typeof reader === 'string') {
    // The header was checked as it was staged: only a change of the rules since could get here. Nothing will run its lines.
    let staged = false;
    await db.transaction().execute(async (trx) => {
      const at = now().toISOString();
      if (await updateJobIf(trx, jobId, 'previewing', { status: 'failed', error: reader, finished_at: at, updated_at: at }))
        staged = await deleteStaged(trx, jobId);
      await lease.end(trx);
    });
    if (staged) await releaseSpace(db);
    return 'failed';
  }
  // From the first line each time: what a holder that died wrote is replaced, not added to.
  await deleteRejects(db, jobId, 'preview');
  const counts = emptyImportCounts();
  const state = { ...previewState(job.client_id), jobId };
  let after = 0;
  let done = 0;
  for (;;) {
    if (options.stopping?.()) {
      await lease.end();
      return 'stopped';
    }
    const batch = await readBatch(db, jobId, reader, after, options.batchSize ?? PREVIEW_CHUNK);
    if (batch.count === 0) break;
    const outcome = await previewBatch(db, kind, batch.items, state);
    addCounts(counts, outcome);
    await insertRejects(db, jobId, 'preview', outcome.problems);
    after = batch.last;
    done += batch.count;
    // The page's progress, and the check that the job is still previewing (a discard stops the preview here).
    if (!(await updateJobIf(db, jobId, 'previewing', { done, updated_at: now().toISOString() }))) return gone(db, jobId, lease);
    await options.afterBatch?.(done);
    if (!(await lease.extend())) return 'lost';
  }
  // Ready, and the lease given up in the same transaction: whoever sees "staged" may take the lease for the run at once.
  const ready = await db.transaction().execute(async (trx) => {
    const staged = await updateJobIf(trx, jobId, 'previewing', {
      status: 'staged',
      // An events file's preview also keeps its first lines with their points and the rules' totals (decision 099).
      preview: JSON.stringify(state.events ? { ...counts, events: eventsPreviewOf(state.events) } : counts),
      done: 0,
      updated_at: now().toISOString(),
    });
    if (staged) await lease.end(trx);
    return staged;
  });
  return ready ? 'staged' : gone(db, jobId, lease);
}

/**
 * The job left "previewing" under us. If it was discarded, the discard deleted the preview's rejects
 * but this holder may have written a batch of them since: removed. If another holder finished it
 * (ours had lapsed), its rejects are the job's and stay.
 */
async function gone(db: Db, jobId: string, lease: JobLease): Promise<PreviewEnd> {
  const job = await findJobById(db, jobId);
  if (!job || job.status === 'discarded') await deleteRejects(db, jobId, 'preview');
  await lease.end();
  return 'gone';
}
