import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { SingleBar, Presets } from 'cli-progress';
import { stringify } from 'csv-stringify';

/** How an import ended, as the issue asks: counts, then the rejected lines with their reasons. */
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

export function emptyCounts(): ImportCounts {
  return { added: 0, updated: 0, unchanged: 0, rejected: 0 };
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

/** The rejected lines as CSV (line,reason), for `--rejects <file>`. */
export async function writeRejects(path: string, rejects: RejectedLine[]): Promise<void> {
  const out = createWriteStream(path);
  const csv = stringify({ header: true, columns: ['line', 'reason'] });
  csv.pipe(out);
  for (const reject of rejects) csv.write(reject);
  csv.end();
  await finished(out);
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
