import { z } from 'zod';

/**
 * The console's imports (issue 20 §2, docs/decisions/064): a participants or points CSV is uploaded
 * (streamed and staged), previewed, confirmed by a program manager with a reason, and run as a job
 * whose progress the page polls. Every role of the client reads the jobs and their rejects.
 */
const seg = encodeURIComponent;

export const consoleImportPaths = {
  /** GET: the client's jobs, newest first. POST (body: the CSV, text/csv; ?kind=&fileName=): stage it; answers "previewing". */
  imports: (clientId: string) => `/clients/${seg(clientId)}/imports`,
  /** GET: one job, its preview and progress. */
  job: (clientId: string, jobId: string) => `/clients/${seg(clientId)}/imports/${seg(jobId)}`,
  /** POST: confirm a previewed import (starts the job). */
  confirm: (clientId: string, jobId: string) => `/clients/${seg(clientId)}/imports/${seg(jobId)}/confirm`,
  /** POST: throw a previewed import away (its staged lines deleted; nothing was written). */
  discard: (clientId: string, jobId: string) => `/clients/${seg(clientId)}/imports/${seg(jobId)}/discard`,
  /** GET: the rejected lines as CSV (the run's once it ran, else the preview's). */
  rejects: (clientId: string, jobId: string) => `/clients/${seg(clientId)}/imports/${seg(jobId)}/rejects.csv`,
} as const;

/** events: a CSV of events, each earning through the rules as POST events would (decision 099). */
export const IMPORT_KINDS = ['points', 'participants', 'events'] as const;
export const ImportKind = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKind>;

/** The largest file and the most data lines an upload may have. */
export const IMPORT_MAX_BYTES = 256 * 1024 * 1024;
export const IMPORT_MAX_LINES = 1_000_000;

export const ImportUploadQuery = z.object({
  kind: ImportKind,
  fileName: z.string().trim().min(1).max(255),
});
export type ImportUploadQuery = z.infer<typeof ImportUploadQuery>;

export const ImportParams = z.object({ clientId: z.string().min(1).max(64), jobId: z.string().min(1).max(64) });

/**
 * staging (the upload under way) → previewing (uploaded; the jobs loop computes the preview) → staged
 * (previewed, awaiting confirmation) → running → done | failed. A previewing or staged job may be
 * discarded (by hand, or after a day unconfirmed); only a staged one may be confirmed.
 */
export const ImportStatus = z.enum(['staging', 'previewing', 'staged', 'running', 'done', 'failed', 'discarded']);
export type ImportStatus = z.infer<typeof ImportStatus>;

export const ImportReject = z.object({ line: z.number().int(), reason: z.string() });
export type ImportReject = z.infer<typeof ImportReject>;

/** Counts of a preview (what would happen) or a run (what happened). */
export const ImportCounts = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
  /** Points: lines whose username no participant has (counted in rejected too). */
  unknownUsernames: z.number().int(),
  /** Points: of the lines added. Events: credited to balances. */
  pointsIn: z.number().int(),
  /** Points: debited. Events: taken back from balances by returns. */
  pointsOut: z.number().int(),
  /** Events: the pending totals' move: what the events held pending, less what returns took from pending points (pointsIn is what is credited). */
  pendingPoints: z.number().int().optional(),
});
export type ImportCounts = z.infer<typeof ImportCounts>;

/** An events file's line as the preview computed it (decision 099): what it would earn, or why not. */
export const ImportEventLine = z.object({
  line: z.number().int(),
  id: z.string().nullable(),
  username: z.string().nullable(),
  /**
   * added: kept and earning; returned: a return, kept, taking back what detail says (points and
   * pendingPoints negative); unchanged: the id was taken already (a repeat, credited once);
   * rejected: refused, see detail.
   */
  outcome: z.enum(['added', 'returned', 'unchanged', 'rejected']),
  /** Credited to the balance (a return: taken from it, negative). */
  points: z.number().int(),
  /** Held pending (a return: taken from pending points, negative). */
  pendingPoints: z.number().int(),
  /** The rules and their points ("Store purchases 241 + Double weekend 241"), or the reason of a refusal. */
  detail: z.string(),
});
export type ImportEventLine = z.infer<typeof ImportEventLine>;

/** What an events preview shows beyond the counts: the file's first lines with their points, each rule's totals. */
export const ImportEventsPreview = z.object({
  lines: z.array(ImportEventLine),
  rules: z.array(
    z.object({ ruleId: z.string(), name: z.string(), points: z.number().int(), pendingPoints: z.number().int(), events: z.number().int() }),
  ),
  /** Rules whose budget the file runs out: the run then takes the file in its order (decision 099). */
  budgetRanOut: z.array(z.string()),
  /**
   * The run takes the file in its order (decision 099): a budget ran out, or a return gave points
   * back to a budget, or named an event not found or another participant's. Absent: by participant.
   */
  fileOrder: z.boolean().optional(),
});
export type ImportEventsPreview = z.infer<typeof ImportEventsPreview>;

export const ImportJob = z.object({
  id: z.string(),
  clientId: z.string(),
  kind: ImportKind,
  status: ImportStatus,
  fileName: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  confirmedBy: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Data lines in the file (the header aside), and how many the run has done (while previewing: how many were previewed). */
  lines: z.number().int(),
  done: z.number().int(),
  /** Null until the preview is ready (status staged and after). */
  preview: ImportCounts.nullable(),
  /** Events: the preview's lines with their points and the rules' totals (null until the preview is ready). */
  eventsPreview: ImportEventsPreview.nullable().optional(),
  result: ImportCounts.nullable(),
  /** The first rejected lines (of the run once it ran, else of the preview); all of them as CSV. */
  rejects: z.array(ImportReject),
  error: z.string().nullable(),
});
export type ImportJob = z.infer<typeof ImportJob>;

export const ImportJobList = z.object({ jobs: z.array(ImportJob.omit({ rejects: true })) });
export type ImportJobList = z.infer<typeof ImportJobList>;

export const ConfirmImportRequest = z.object({ reason: z.string().trim().min(3).max(500) });
export type ConfirmImportRequest = z.infer<typeof ConfirmImportRequest>;

/** The reason is optional: throwing a preview away writes nothing but the audit entry. */
export const DiscardImportRequest = z.object({ reason: z.string().trim().max(500).optional() });
export type DiscardImportRequest = z.infer<typeof DiscardImportRequest>;
