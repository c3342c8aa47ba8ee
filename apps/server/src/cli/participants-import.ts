import { constants, createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { CsvError } from 'csv-parse';
import type { Db } from '../db/database.ts';
import type { Client } from '../modules/clients/tables.ts';
import { recordAudit } from '../modules/audit/service.ts';
import { clientLocales } from '../modules/clients/service.ts';
import { writeParticipantBatch, type ImportLine } from '../modules/participants/enrolment.ts';
import { usernameKey } from '../modules/participants/service.ts';
import { CliError, type CommandResult } from './cli-context.ts';
import { operatorOrigin } from './commands/audit.ts';
import { emptyCounts, formatImportReport, progressBar, writeRejects, type ImportReport, type RejectedLine } from './import-report.ts';
import { unusablePasswordHash, type ClientRules } from '../modules/participants/fields.ts';
import { participantColumnsOf, parseParticipantLine, type HeaderColumn } from '../modules/imports/participants.ts';
import { LineTooLong, importCsvParser } from '../modules/imports/csv-input.ts';

/** Lines per transaction: few commits, and a stopped import loses at most one batch (which a re-run redoes). */
export const IMPORT_BATCH = 1000;

/** The header's columns by position, or a CliError naming what is missing, unknown or repeated. */
function readHeader(record: string[]): HeaderColumn[] {
  const columns = participantColumnsOf(record);
  if (typeof columns === 'string') throw new CliError(columns);
  return columns;
}

async function requireFile(path: string): Promise<number> {
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

/** The folder of --rejects is checked before the import, not found missing after it. */
async function requireWritableFolder(path: string): Promise<void> {
  try {
    await access(dirname(resolve(path)), constants.W_OK);
  } catch {
    throw new CliError(`Cannot write ${path}`);
  }
}

/**
 * `participants import`: the file is streamed (csv-parse), checked line by line, and written in
 * batches of IMPORT_BATCH lines, each one transaction of a few multi-row statements. Matching is
 * on the username key, so a re-run updates what changed, leaves the rest and never duplicates;
 * an import stopped half-way is finished by running it again. New participants get an unusable
 * password (see unusablePasswordHash): pending ones activate, active ones reset their password.
 */
export async function importParticipants(
  db: Db,
  client: Client,
  path: string,
  options: { operator: string; rejectsPath?: string },
): Promise<CommandResult> {
  const size = await requireFile(path);
  if (options.rejectsPath) await requireWritableFolder(options.rejectsPath);
  const rules: ClientRules = { locales: (await clientLocales(db, client.id)).map((l) => l.code), defaultLocale: client.default_locale };
  const passwordHash = await unusablePasswordHash();
  const counts = emptyCounts();
  const rejects: RejectedLine[] = [];
  let sessionsEnded = 0;
  const reject = (line: number, reason: string) => {
    rejects.push({ line, reason });
    counts.rejected += 1;
  };
  // The first line of each username and account number, to refuse repeats within the file.
  const usernameLines = new Map<string, number>();
  const accountLines = new Map<string, number>();

  const writeBatch = async (batch: ImportLine[]) => {
    const outcome = await writeParticipantBatch(db, client.id, batch, passwordHash, new Date());
    counts.added += outcome.added;
    counts.updated += outcome.updated;
    counts.unchanged += outcome.unchanged;
    sessionsEnded += outcome.sessionsEnded;
    for (const r of outcome.rejects) reject(r.line, r.reason);
  };

  // The console's reader (a line over IMPORT_MAX_LINE_BYTES stops the import there: LineTooLong).
  const parser = importCsvParser(createReadStream(path));
  parser.on('skip', (error: CsvError | undefined) => {
    const line = typeof error?.lines === 'number' ? error.lines : 0;
    reject(line, `not readable as CSV: ${error?.message.replace(/ at line \d+/, '') ?? 'malformed'}`);
  });
  const progress = progressBar('participants', size);
  let header: HeaderColumn[] | undefined;
  let batch: ImportLine[] = [];
  try {
    for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number }; record: string[] }>) {
      const line = info.lines;
      if (!header) {
        header = readHeader(record);
        continue;
      }
      progress.update(parser.info.bytes, line);
      const checked = parseParticipantLine(record, header, rules, line);
      if (!('fields' in checked)) {
        reject(line, checked.reason);
        continue;
      }
      const key = usernameKey(checked.fields.username);
      const firstOfUsername = usernameLines.get(key);
      if (firstOfUsername !== undefined) {
        reject(line, `username "${checked.fields.username}" repeats line ${firstOfUsername}`);
        continue;
      }
      const firstOfAccount = accountLines.get(checked.fields.accountNumber);
      if (firstOfAccount !== undefined) {
        reject(line, `account number ${checked.fields.accountNumber} repeats line ${firstOfAccount}`);
        continue;
      }
      usernameLines.set(key, line);
      accountLines.set(checked.fields.accountNumber, line);
      batch.push({ line, fields: checked.fields });
      if (batch.length >= IMPORT_BATCH) {
        await writeBatch(batch);
        batch = [];
      }
    }
    if (!header) throw new CliError(`${path} is empty: the first line must be the header row`);
    if (batch.length > 0) await writeBatch(batch);
  } catch (error) {
    if (error instanceof LineTooLong)
      throw new CliError(
        `${path}: ${error.message} The import stopped there: the batches before it stay; mend the line and run the same command again (what is written already stays unchanged).`,
      );
    throw error;
  } finally {
    progress.stop();
  }

  rejects.sort((a, b) => a.line - b.line);
  const report: ImportReport = { file: path, ...counts, rejects };
  await db.transaction().execute((trx) =>
    recordAudit(trx, {
      clientId: client.id,
      actor: options.operator,
      actorKind: 'operator',
      action: 'participants.import',
      subject: basename(path),
      details: { ...counts, sessionsEnded },
      origin: operatorOrigin,
    }),
  );
  if (options.rejectsPath) await writeRejects(options.rejectsPath, rejects);
  return { human: formatImportReport('Participants', report), json: { ...report, sessionsEnded } };
}
