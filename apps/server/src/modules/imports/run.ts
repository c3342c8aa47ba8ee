import type { ImportKind } from '@rewards/contract/console-imports';
import type { Db } from '../../db/database.ts';
import { recordAudit } from '../audit/service.ts';
import { findJobById, finishJob, jobIdsIn, takeLease, updateRunningJobAt, type JobLease, type LeaseOptions } from '../jobs/service.ts';
import { unusablePasswordHash } from '../participants/fields.ts';
import {
  addCounts,
  discardStaleImports,
  type RunCounts,
  emptyImportCounts,
  lineReader,
  readBatch,
  readBatchInOrder,
  type ImportParams,
} from './service.ts';
import { importLeaseName, previewImportJob } from './preview.ts';
import { deleteStagedLines, insertRejects } from './store.ts';
import { participantOrder } from './run-order.ts';
import { withJobTuning } from './sqlite-tuning.ts';
import { runBatch } from './work.ts';
import { columnsOf } from './points-lines.ts';
import { eventColumnsOf } from './events.ts';
import { tellWebhooks } from '../webhooks/service.ts';

/**
 * The import job's run (docs/decisions/064). Whoever holds the job's lease (modules/jobs, the one
 * lease the expiry run shares) takes the staged lines after the job's cursor a batch at a time
 * (a points job by participant, run-order.ts; a participants job in the file's order);
 * each batch is one transaction that posts the lines, records their rejects and moves the cursor
 * and the counts, so a process that dies loses at most the batch under way and the next holder
 * goes on from the cursor: totals stay exact and no line is posted twice (the ledger's references
 * and the username match make even a replayed batch harmless).
 */

/**
 * Staged lines per transaction: the command's batch (decision 022). The SQLite writer is held for
 * one batch, then requests interleave: at 1,000,000 lines a batch of a points job takes ~0.7 s of
 * CPU, and a larger one would keep the console's and the portal's writes waiting past the second
 * or so an import may hold the writer. What a batch writes no longer grows with the batch's
 * participants (run-order.ts) but with the index of references, whose pages a batch's lines take
 * all over: fewer batches would write less (decision 091, amended 2026-11-28).
 */
export const RUN_BATCH = 20_000;

export interface RunOptions extends LeaseOptions {
  batchSize?: number;
  /** Called after each committed batch (tests stop a "process" here). */
  afterBatch?: (done: number) => void | Promise<void>;
  /** Asked between batches: true ends the run early, leaving the lease free for another process. */
  stopping?: () => boolean;
}

export type RunEnd = 'done' | 'failed' | 'busy' | 'not-running' | 'stopped' | 'lost';

/** The cursor moved under us: another holder did this batch (our lease had lapsed). */
class CursorMoved extends Error {}

export { importLeaseName };

export async function runImportJob(db: Db, jobId: string, options: RunOptions = {}): Promise<RunEnd> {
  const lease = await takeLease(db, importLeaseName(jobId), options);
  if (!lease) return 'busy';
  return withJobTuning(db, () => runLeased(db, jobId, lease, options));
}

async function runLeased(db: Db, jobId: string, lease: JobLease, options: RunOptions): Promise<RunEnd> {
  const now = options.now ?? (() => new Date());
  const job = await findJobById(db, jobId);
  if (!job || job.status !== 'running') {
    await lease.end();
    return 'not-running';
  }
  const kind = job.kind as ImportKind;
  const params = JSON.parse(job.params) as ImportParams;
  const reader = await lineReader(db, job.client_id, kind, params.header);
  if (typeof reader === 'string') {
    // Nothing a retry could mend: the job ends as failed and frees the client's slot.
    await db.transaction().execute(async (trx) => {
      if (
        await finishJob(trx, job.client_id, jobId, 'running', {
          status: 'failed',
          error: reader,
          finished_at: now().toISOString(),
          updated_at: now().toISOString(),
        })
      ) {
        // Told to the client's webhooks with the end of the job (decision 084).
        await tellWebhooks(
          trx,
          {
            clientId: job.client_id,
            kind: 'import.finished',
            data: { jobId, importKind: kind, status: 'failed', fileName: job.file_name, error: reader },
          },
          now(),
        );
      }
    });
    await lease.end();
    return 'failed';
  }
  // Every entry of the run carries its start as created_at (repeats within the file, decision 022): the same after a resume.
  const runAt = new Date(job.started_at ?? job.created_at);
  const passwordHash = kind === 'participants' ? await unusablePasswordHash() : '';
  const counts: RunCounts = job.result === null ? emptyImportCounts() : (JSON.parse(job.result) as RunCounts);
  // A points job confirmed since decision 091's amendment runs by participant (run-order.ts), and an
  // events job whose file runs no budget out (decision 099); its cursor is then a position in that
  // order, otherwise the last line done.
  const order =
    (kind === 'points' || kind === 'events') && params.order === 'participant'
      ? await participantOrder(db, jobId, usernameColumnOf(kind, params.header), Number(job.total))
      : undefined;
  let cursor = Number(job.cursor);
  let done = Number(job.done);
  for (;;) {
    if (options.stopping?.()) {
      await lease.end();
      return 'stopped';
    }
    const size = options.batchSize ?? RUN_BATCH;
    const batch = order ? await readBatchInOrder(db, jobId, reader, order, cursor, size) : await readBatch(db, jobId, reader, cursor, size);
    if (batch.count === 0) break;
    const next = { ...counts };
    try {
      await db.transaction().execute(async (trx) => {
        const outcome = await runBatch(trx, job.client_id, kind, batch.items, runAt, passwordHash, jobId);
        addCounts(next, outcome);
        await insertRejects(trx, jobId, 'run', outcome.problems);
        const progress = { cursor: batch.last, done: done + batch.count, result: JSON.stringify(next), updated_at: now().toISOString() };
        if (!(await updateRunningJobAt(trx, jobId, cursor, progress))) throw new CursorMoved();
      });
    } catch (error) {
      if (error instanceof CursorMoved) return 'lost';
      throw error;
    }
    Object.assign(counts, next);
    cursor = batch.last;
    done += batch.count;
    await options.afterBatch?.(done);
    if (!(await lease.extend())) return 'lost';
  }

  await db.transaction().execute(async (trx) => {
    const at = now();
    const finished = await finishJob(trx, job.client_id, jobId, 'running', {
      status: 'done',
      finished_at: at.toISOString(),
      updated_at: at.toISOString(),
      result: JSON.stringify(counts),
    });
    if (!finished) return;
    // Told to the client's webhooks with the end of the job, one event for the whole file (decision 084).
    await tellWebhooks(
      trx,
      {
        clientId: job.client_id,
        kind: 'import.finished',
        data: { jobId, importKind: kind, status: 'done', fileName: job.file_name, lines: done, counts },
      },
      at,
    );
    // One audit action whichever way the file came, as whoever confirmed it (an operator's origin is cli@host).
    await recordAudit(
      trx,
      {
        clientId: job.client_id,
        actor: job.confirmed_by ?? job.created_by,
        actorKind: params.runBy?.kind ?? 'staff',
        action: kind === 'points' ? 'points.import' : kind === 'events' ? 'events.import' : 'participants.import',
        subject: job.file_name,
        details: { job: jobId, lines: done, ...counts },
        origin: params.runBy ? params.runBy.origin : 'console',
      },
      at,
    );
  });
  // The staged lines go; their space stays in the file, free pages the next upload's staging and
  // the ledger's growth take (decision 091, amended 2026-11-28). Giving it back here, as a discard
  // does, meant moving the run's own newest pages into it: at 1,000,000 lines, ~1.1 GB written.
  await deleteStagedLines(db, jobId);
  await lease.end();
  return 'done';
}

/** The username's column of a file run by participant (run-order.ts); the header was checked as it was staged. */
function usernameColumnOf(kind: ImportKind, header: readonly string[]): number {
  if (kind === 'events') return (eventColumnsOf(header) as { fields: { username: number } }).fields.username;
  return (columnsOf(header) as Record<'username', number>).username;
}

export interface ImportRunner {
  /**
   * Does the job's phase that is due in the background now: its preview if it is previewing, its
   * run if it is running. If this runner is already on the job, the job is looked at again once
   * that ends (a confirm just after the preview was ready starts the run).
   */
  kick(jobId: string): void;
  /** Kicks every job being previewed or run (those whose holder died are taken over once their lease lapses). */
  resume(): Promise<void>;
  /** Ends the runs between batches (their leases freed) and waits for them. */
  stop(): Promise<void>;
}

export function importRunner(db: Db, log: { warn(message: string): void }, options: RunOptions = {}): ImportRunner {
  const running = new Map<string, Promise<unknown>>();
  const again = new Set<string>();
  let stopped = false;
  const phase = async (jobId: string) => {
    const job = await findJobById(db, jobId);
    const phaseOptions = { ...options, stopping: () => stopped };
    if (job?.status === 'previewing') return previewImportJob(db, jobId, phaseOptions);
    if (job?.status === 'running') return runImportJob(db, jobId, phaseOptions);
    return 'not-due';
  };
  const runner: ImportRunner = {
    kick(jobId) {
      if (stopped) return;
      if (running.has(jobId)) {
        again.add(jobId);
        return;
      }
      const work = phase(jobId)
        .catch((error: unknown) => log.warn(`import job ${jobId} stopped: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          running.delete(jobId);
          if (again.delete(jobId)) runner.kick(jobId);
        });
      running.set(jobId, work);
    },
    async resume() {
      if (stopped) return;
      for (const id of await jobIdsIn(db, ['previewing', 'running'])) runner.kick(id);
    },
    async stop() {
      stopped = true;
      // A re-kick is refused once stopped, so the map only shrinks.
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
  return runner;
}

export interface ImportJobsOptions {
  /** How often the loop runs (it also runs at start). */
  everyMs?: number;
  /** The clean-up's clock (tests). */
  now?: () => Date;
}

/**
 * main.ts: previews uploaded jobs and resumes running ones, at start and every `everyMs` (a lapsed
 * lease is taken over),
 * and discards the imports left staged longer than STAGED_IMPORT_MAX_AGE_MS (service.ts).
 */
export function startImportJobs(db: Db, log: { warn(message: string): void }, options: ImportJobsOptions = {}): { stop(): Promise<void> } {
  const runner = importRunner(db, log);
  const now = options.now ?? (() => new Date());
  const warn = (what: string) => (error: unknown) => log.warn(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  let cleaning: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    void runner.resume().catch(warn('import jobs'));
    // One clean-up at a time: a slow one (a large staged file's lines) is skipped by the next tick, not doubled.
    if (cleaning || stopped) return;
    cleaning = discardStaleImports(db, now())
      .catch(warn('staged imports clean-up'))
      .finally(() => (cleaning = null));
  };
  tick();
  const timer = setInterval(tick, options.everyMs ?? 30_000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all([runner.stop(), cleaning]);
    },
  };
}
