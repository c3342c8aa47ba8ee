import { createWriteStream, openSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { SingleBar, Presets } from 'cli-progress';
import { csvLine } from '@rewards/contract/csv';
import { CliError } from './cli-context.ts';

/** How an import ended, as the issue asks: counts, then the rejected lines with their reasons (cli/import-job.ts makes it from the job). */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface RejectedLine {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  reason: string;
}

export interface ImportReport extends ImportCounts {
  file: string;
  rejects: RejectedLine[];
}

/** At most this many rejected lines are listed on the terminal; all go to --rejects. */
const REJECTS_SHOWN = 50;

export function formatImportReport(what: string, report: ImportReport): string {
  const lines = [
    `${what} from ${report.file}: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ${report.rejected} rejected.`,
  ];
  for (const reject of report.rejects.slice(0, REJECTS_SHOWN)) lines.push(`  line ${reject.line}: ${reject.reason}`);
  if (report.rejects.length > REJECTS_SHOWN) lines.push(`  … and ${report.rejects.length - REJECTS_SHOWN} more (use --rejects <file>)`);
  return lines.join('\n');
}

/** A `--rejects` file being written: a line per rejected line, as they come. */
export interface RejectsFile {
  write(reject: RejectedLine): void;
  close(): Promise<void>;
}

/**
 * The `--rejects <file>` CSV of both imports (line,reason), by the one CSV writer (decision 073): a
 * reason that would run as a formula is neutralised, the line stays a number. Opened now, so that a
 * file the operator cannot write stops the import before it starts; written as lines are rejected,
 * so that a million bad lines take no memory.
 */
export function openRejectsFile(path: string): RejectsFile {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch {
    throw new CliError(`Cannot write --rejects ${path}`);
  }
  const out = createWriteStream(path, { fd });
  let failure: Error | undefined;
  out.on('error', (error) => (failure = error));
  out.write(csvLine(['line', 'reason']));
  return {
    write: (reject) => out.write(csvLine([reject.line, reject.reason])),
    async close() {
      out.end();
      await finished(out).catch(() => {});
      if (failure) throw new CliError(`Cannot write ${path}: ${failure.message}`);
    },
  };
}

/** The rejected lines as CSV (line,reason), written at once (test/csv-exports.test.ts checks both ways of writing one). */
export async function writeRejects(path: string, rejects: readonly RejectedLine[]): Promise<void> {
  const file = openRejectsFile(path);
  for (const reject of rejects) file.write(reject);
  await file.close();
}

/** A progress bar on a terminal (stderr, so stdout stays clean for --json); nothing otherwise. */
export interface Progress {
  /** `done` in the unit of the total given (bytes of the file read, for streamed files). */
  update(done: number, lines: number): void;
  stop(): void;
}

export function progressBar(label: string, total: number): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar(
    { format: `${label} [{bar}] {percentage}% | {lines} lines | {eta_formatted} left`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(total, 0, { lines: 0 });
  return { update: (done, lines) => bar.update(done, { lines }), stop: () => bar.stop() };
}
