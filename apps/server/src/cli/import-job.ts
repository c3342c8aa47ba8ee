import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import type { ImportCounts as JobCounts, ImportEventsPreview, ImportKind } from '@rewards/contract/console-imports';
import type { Db } from '../db/database.ts';
import { ApiError } from '../http/api-error.ts';
import { findJobById, findLease, slotHolder } from '../modules/jobs/service.ts';
import { importLeaseName, previewImportJob } from '../modules/imports/preview.ts';
import { runImportJob } from '../modules/imports/run.ts';
import {
  confirmImport,
  discardImport,
  discardStaleImports,
  importErrors,
  importRejects,
  readImport,
  stageImport,
} from '../modules/imports/service.ts';
import { CliError } from './cli-context.ts';
import { operatorOrigin } from './commands/audit.ts';
import { openRejectsFile, progressBar, type RejectedLine } from './import-report.ts';

/**
 * `rewards points import` and `rewards participants import` run the console's import job in this
 * process (docs/decisions/091): the file is staged, previewed, confirmed by the operator and run by
 * modules/imports, with its batches, its SQLite settings and its guarantees (idempotent on the
 * external id or username, resumable from the job's cursor after a kill, one job per client at a
 * time). The command adds only the terminal: progress, the summary, --json and --rejects.
 */

/** Rejected lines kept for the summary and --json; all of them go to --rejects. */
const REJECTS_KEPT = 10_000;
/** Rejects read per page from the job. */
const REJECTS_PAGE = 1_000;
/** How often the command looks at a phase another process took over (it reads the job's row). */
const POLL_MS = 500;
/** A job whose row no process moved for this long (twice the jobs' lease): the command stops waiting for it. */
const STALLED_MS = 4 * 60_000;

export interface ImportCommandOptions {
  kind: ImportKind;
  clientId: string;
  file: string;
  operator: string;
  rejectsPath?: string;
  dryRun?: boolean;
  /** Lines per batch of the preview and the run (tests make them small). */
  batchSize?: number;
}

export interface ImportCommandReport extends JobCounts {
  file: string;
  /** The file's lines, the header not counted. */
  lines: number;
  /** The job that did it (the console shows it among the client's imports). */
  job: string;
  /** True for --dry-run: the counts are the preview's, nothing was written. */
  dryRun: boolean;
  /** In line order, at most REJECTS_KEPT (all of them in --rejects). */
  rejects: RejectedLine[];
  /** Events: the preview's first lines with their points and each rule's totals (decision 099). */
  eventsPreview?: ImportEventsPreview;
  /** The job finished first: one left running by a process that died (its own file, its own counts). */
  finishedFirst?: { job: string; file: string; lines: number };
}

export async function runImportCommand(db: Db, options: ImportCommandOptions): Promise<ImportCommandReport> {
  const size = await fileSize(options.file);
  const actor = { name: options.operator, kind: 'operator' as const, origin: operatorOrigin };
  // Opened now: a file the operator cannot write stops the import before anything is staged.
  const rejectsOut = options.rejectsPath ? openRejectsFile(options.rejectsPath) : undefined;
  let closed = false;
  const closeRejects = async () => {
    if (rejectsOut && !closed) {
      closed = true;
      await rejectsOut.close();
    }
  };
  let interruptedIn: 'staging' | 'run' = 'staging';
  let stopping = false;
  const progress = { current: progressBar(`Reading ${basename(options.file)}`, size) };
  // Ctrl-C: while the file is staged or previewed nothing was imported, and the command ends at
  // once (the abandoned job is discarded by the server's clean-up); while it runs, the run stops
  // after the batch under way, its lease given up, and the same command finishes the job.
  const interrupted = () => {
    if (interruptedIn !== 'run') {
      progress.current.stop();
      process.stderr.write('\nrewards: interrupted before the import ran; nothing was imported.\n');
      process.exit(130);
    }
    stopping = true;
  };
  process.on('SIGINT', interrupted);
  try {
    // What the server's jobs loop does every 30 s, for installations run from the command alone:
    // uploads abandoned (a command stopped while staging) or left unconfirmed for a day go.
    await discardStaleImports(db);
    // Finishing a run stops between batches on Ctrl-C, as this command's own run does.
    interruptedIn = 'run';
    const finishedFirst = await finishAbandonedRun(db, options, () => stopping);
    interruptedIn = 'staging';
    let read = 0;
    async function* counted() {
      for await (const chunk of createReadStream(options.file) as AsyncIterable<Buffer>) {
        read += chunk.length;
        progress.current.update(read, 0);
        yield chunk;
      }
    }
    // The console's limits are for what a browser sends; the operator's own file has none but the disk's.
    const staged = await stageImport(db, actor, options.clientId, options.kind, basename(options.file), counted(), {
      maxBytes: Number.MAX_SAFE_INTEGER,
      maxLines: Number.MAX_SAFE_INTEGER,
    }).catch((error: unknown) => {
      throw commandError(error, options.file);
    });
    progress.current.stop();
    const lines = staged.lines;
    const phaseOptions = (label: string) => {
      progress.current = progressBar(label, Math.max(lines, 1));
      return {
        ...(options.batchSize ? { batchSize: options.batchSize } : {}),
        afterBatch: (done: number) => progress.current.update(done, done),
        stopping: () => stopping,
      };
    };
    const previewed = await previewImportJob(db, staged.id, phaseOptions(`Checking ${basename(options.file)}`));
    progress.current.stop();
    if (previewed === 'busy') await waitWhile(db, staged.id, 'previewing');
    const ready = await readImport(db, options.clientId, staged.id);
    if (ready?.status !== 'staged') throw new CliError(`${options.file}: ${ready?.error ?? `the preview ended ${ready?.status}`}`);

    if (options.dryRun) {
      // Read before the discard, which deletes them.
      const rejects = await collectRejects(db, staged.id, 'preview', rejectsOut);
      await closeRejects();
      await discardImport(db, actor, options.clientId, staged.id, 'rewards import --dry-run');
      return {
        file: options.file,
        lines,
        job: staged.id,
        dryRun: true,
        ...ready.preview!,
        ...(ready.eventsPreview ? { eventsPreview: ready.eventsPreview } : {}),
        rejects: rejects.kept,
        ...(finishedFirst ? { finishedFirst } : {}),
      };
    }

    await confirmImport(db, actor, options.clientId, staged.id, `rewards ${options.kind} import ${basename(options.file)}`);
    interruptedIn = 'run';
    const ran = await runImportJob(db, staged.id, phaseOptions(`Importing ${basename(options.file)}`));
    progress.current.stop();
    if (ran === 'stopped') {
      process.stderr.write(
        '\nrewards: interrupted; the batches already committed stay. Run the same command again to finish: no line is posted twice.\n',
      );
      process.exit(130);
    }
    if (ran === 'busy' || ran === 'lost') await waitWhile(db, staged.id, 'running');
    const done = await readImport(db, options.clientId, staged.id);
    if (done?.status !== 'done') throw new CliError(`${options.file}: ${done?.error ?? `the import ended ${done?.status}`}`);
    const rejects = await collectRejects(db, staged.id, 'run', rejectsOut);
    await closeRejects();
    return {
      file: options.file,
      lines,
      job: staged.id,
      dryRun: false,
      ...done.result!,
      rejects: rejects.kept,
      ...(finishedFirst ? { finishedFirst } : {}),
    };
  } finally {
    process.off('SIGINT', interrupted);
    progress.current.stop();
    await closeRejects().catch(() => {});
  }
}

async function fileSize(path: string): Promise<number> {
  if (!path) throw new CliError('Name the CSV file to import');
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new CliError(`${path} is not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot read ${path}: no such file`);
  }
}

/** A refusal of the file (header, empty, a line too long) said as the command always did: the file, then why. */
function commandError(error: unknown, file: string): unknown {
  return error instanceof ApiError ? new CliError(`${file}: ${error.message}`) : error;
}

/**
 * The client's job slot is held by a job that runs: if its holder is gone (a command killed, or a
 * server stopped, and its lease lapsed or its process no longer alive on this host), this command
 * finishes that job first, as any server process would, and then imports its own file; a job a
 * live process runs: refused, nothing staged.
 */
async function finishAbandonedRun(
  db: Db,
  options: ImportCommandOptions,
  stopping: () => boolean,
): Promise<ImportCommandReport['finishedFirst']> {
  const holder = await slotHolder(db, options.clientId);
  if (!holder || holder.status !== 'running') return undefined;
  const lease = await findLease(db, importLeaseName(holder.id));
  const dead = lease && deadHereHolder(lease.holder) ? { holder: lease.holder } : {};
  process.stderr.write(
    `rewards: finishing the import of "${holder.file_name}" (job ${holder.id}) left running by ${holder.confirmed_by ?? holder.created_by}\n`,
  );
  const ran = await runImportJob(db, holder.id, { ...dead, ...(options.batchSize ? { batchSize: options.batchSize } : {}), stopping });
  if (ran === 'busy') throw importErrors.running(holder);
  if (ran === 'stopped') process.exit(130);
  return { job: holder.id, file: holder.file_name, lines: Number(holder.total) };
}

/** A lease holder (host:pid:random, modules/jobs leaseHolder) that was a process of this host which is no longer alive. */
function deadHereHolder(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Another process (a server's jobs loop) took the phase: its progress is the job's row; waits until it leaves `status`. */
async function waitWhile(db: Db, jobId: string, status: string): Promise<void> {
  let seen = '';
  let deadline = Date.now() + STALLED_MS;
  for (;;) {
    const job = await findJobById(db, jobId);
    if (job?.status !== status) return;
    if (job.updated_at !== seen) {
      seen = job.updated_at;
      deadline = Date.now() + STALLED_MS;
    } else if (Date.now() > deadline)
      throw new CliError(
        `The import (job ${jobId}) is ${status} in another process that stopped moving it; run the same command again to finish it`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function collectRejects(
  db: Db,
  jobId: string,
  phase: 'preview' | 'run',
  out: ReturnType<typeof openRejectsFile> | undefined,
): Promise<{ kept: RejectedLine[] }> {
  const kept: RejectedLine[] = [];
  let after = 0;
  for (;;) {
    const page = await importRejects(db, jobId, phase, after, REJECTS_PAGE);
    if (page.length === 0) return { kept };
    for (const reject of page) {
      if (kept.length < REJECTS_KEPT) kept.push(reject);
      out?.write(reject);
    }
    after = page.at(-1)!.line;
    // Nothing more to keep and nowhere to write: the rest need not be read.
    if (!out && kept.length >= REJECTS_KEPT) return { kept };
  }
}
