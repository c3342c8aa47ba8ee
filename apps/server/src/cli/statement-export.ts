import { open } from 'node:fs/promises';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { once } from 'node:events';
import { CSV_BOM, csvLine, type CsvCell } from '@rewards/contract/csv';
import type { Db } from '../db/database.ts';
import type { Client } from '../modules/clients/tables.ts';
import { createDescriber, type StoredDescription } from '../modules/activity/describe.ts';
import { pickStatementLocale } from '../modules/activity/service.ts';
import { listStatementEntries } from '../modules/ledger/service.ts';
import { buildBundle } from '../modules/i18n/service.ts';
import { participantsPage } from '../modules/participants/operator-service.ts';
import { CliError } from './cli-context.ts';

/** Participants read per query by `--all`; each one's ledger is then read (and written out) alone. */
const PAGE = 500;

/** A participant whose statement is exported. */
export interface StatementOwner {
  id: string;
  username: string;
  locale: string;
}

export interface ExportTotals {
  participants: number;
  rows: number;
}

/**
 * `YYYY-MM-DD HH:MM:SS` in UTC: the web's download writes the same form in the participant's own
 * time zone, which an operator's tool does not know; every spreadsheet reads it as a date-time.
 */
export function spreadsheetDateUtc(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return new Date(time).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Streams statements as CSV, as the portal's "Download as CSV" writes them: UTF-8 with a byte-order
 * mark, CRLF, a header row in the locale's words, then date, description, points and balance
 * after, oldest first. Every line is the one CSV writer's (`@rewards/contract/csv`, decision 073):
 * text that would run as a formula, a username as much as a description, is neutralised; points
 * stay numbers. The rows are those of GET user/account/statement (the same store query and
 * describer, descriptions in the participant's language unless a locale is forced); with
 * `withUsername`, a first column names the participant (the `--all` export). Memory holds one
 * participant's ledger at a time.
 */
export class StatementWriter {
  readonly #db: Db;
  readonly #client: Client;
  readonly #offered: readonly string[];
  readonly #forcedLocale: string | undefined;
  readonly #csv: PassThrough;
  readonly #done: Promise<void>;
  readonly #describers = new Map<string, (entry: StoredDescription) => string>();
  readonly totals: ExportTotals = { participants: 0, rows: 0 };

  private constructor(
    db: Db,
    client: Client,
    offered: readonly string[],
    forcedLocale: string | undefined,
    csv: PassThrough,
    done: Promise<void>,
  ) {
    this.#db = db;
    this.#client = client;
    this.#offered = offered;
    this.#forcedLocale = forcedLocale;
    this.#csv = csv;
    this.#done = done;
  }

  static async open(
    db: Db,
    client: Client,
    offered: readonly string[],
    options: { forcedLocale?: string; headerLocale: string; withUsername: boolean; out: Writable },
  ): Promise<StatementWriter> {
    const { properties } = await buildBundle(db, client.id, options.headerLocale);
    const header = ['activity.csv.date', 'activity.csv.description', 'activity.csv.amount', 'activity.csv.balance'].map(
      (key) => properties[key] ?? key,
    );
    // Lines of text through a stream piped to the output, so a slow output holds the export back.
    const csv = new PassThrough();
    csv.write(CSV_BOM + csvLine(options.withUsername ? ['username', ...header] : header));
    csv.pipe(options.out);
    // A closed pipe (`| head`) or a full disk ends the export with that error instead of a hang.
    options.out.on('error', (error) => csv.destroy(error));
    // stdout is never ended (the summary may follow on stderr); a file is closed and awaited.
    const done = options.out === process.stdout ? finished(csv) : finished(options.out);
    // Awaited by close(); an export that fails earlier reports the write's own error instead.
    done.catch(() => {});
    return new StatementWriter(db, client, offered, options.forcedLocale, csv, done);
  }

  async #describer(locale: string) {
    let describe = this.#describers.get(locale);
    if (!describe) {
      describe = createDescriber((await buildBundle(this.#db, this.#client.id, locale)).properties, locale);
      this.#describers.set(locale, describe);
    }
    return describe;
  }

  async #write(record: readonly CsvCell[]): Promise<void> {
    if (!this.#csv.write(csvLine(record))) await once(this.#csv, 'drain');
  }

  /** One participant's statement; the first column is their username when `prefix` is given. */
  async write(owner: StatementOwner, prefix: boolean): Promise<void> {
    const locale = pickStatementLocale(this.#offered, this.#forcedLocale ?? owner.locale, owner.locale, this.#client.default_locale);
    const [describe, rows] = await Promise.all([this.#describer(locale), listStatementEntries(this.#db, this.#client.id, owner.id)]);
    let balance = 0;
    for (const row of rows) {
      const amount = Number(row.amount);
      balance += amount;
      const cells = [spreadsheetDateUtc(row.occurred_at), describe(row), amount, balance];
      await this.#write(prefix ? [owner.username, ...cells] : cells);
    }
    this.totals.participants += 1;
    this.totals.rows += rows.length;
  }

  /** Every participant of the client, in username order, a page of them at a time. */
  async writeAll(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const page = await participantsPage(this.#db, this.#client.id, after, PAGE);
      for (const owner of page) await this.write(owner, true);
      if (page.length < PAGE) break;
      after = page[page.length - 1]?.username_key;
    }
  }

  async close(): Promise<void> {
    this.#csv.end();
    await this.#done;
  }
}

/** Where the CSV goes: a file, or stdout when no `--out` is given. */
export async function openOutput(path: string | undefined): Promise<Writable> {
  if (!path) return process.stdout;
  try {
    // Opened before anything is read, so a bad path fails at once, with nothing written.
    return (await open(path, 'w')).createWriteStream();
  } catch {
    throw new CliError(`Cannot write ${path}`);
  }
}

/** The client's spelling of a locale an operator names, or a CliError listing the client's. */
export function requireLocale(offered: readonly string[], asked: string): string {
  const found = offered.find((code) => code.toLowerCase() === asked.trim().toLowerCase());
  if (!found) throw new CliError(`--locale must be one of the client's locales (${offered.join(', ')})`);
  return found;
}
