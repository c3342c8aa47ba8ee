import { createHash } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { StatementEntry, StatementQuery, StatementReply } from '@rewards/contract';
import { ErrorCode } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { clockOptions, generationKey, perDatabase } from '../../db/read-cache.ts';
import type { Session } from '../sessions/tables.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { clientLocales, findClient } from '../clients/service.ts';
import type { Properties } from '../i18n/base-bundles.ts';
import { buildBundle } from '../i18n/service.ts';
import { countStatementEntries, listStatementEntries, listStatementPage, type StatementCursor } from '../ledger/service.ts';
import { findStatementVersion, usernameKey } from '../participants/service.ts';
import { createDescriber, type StoredDescription } from './describe.ts';

const notOwnStatement = () =>
  new ApiError(403, ErrorCode.statementNotOwn, 'activity.error.notOwn', 'A statement can only be read by its own participant');

/**
 * The language of the descriptions: the one asked for if the client offers it, else the
 * participant's own (if still offered), else the client's default. A statement always reads.
 */
export function pickStatementLocale(offered: readonly string[], asked: string, participantLocale: string, clientDefault: string): string {
  const find = (code: string) => offered.find((o) => o.toLowerCase() === code.toLowerCase());
  return find(asked) ?? find(participantLocale) ?? find(clientDefault) ?? offered[0] ?? clientDefault;
}

/** Stored times are ISO-8601 UTC; the reply says so explicitly, whatever a row holds. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function withOffset(occurredAt: string): string {
  // What the portal writes is already in the reply's form; parsing 10,000 dates again is not free.
  if (ISO_UTC.test(occurredAt)) return occurredAt;
  const time = Date.parse(occurredAt);
  return Number.isNaN(time) ? occurredAt : new Date(time).toISOString();
}

/** A built statement, and whose it is (the username check of every request). */
interface ReadyStatement {
  usernameKey: string;
  reply: StatementReply;
  /** About what its JSON weighs, for the cache's bound. */
  bytes: number;
}

/** Everything a statement is made of, read cheaply before deciding whether to build it. */
interface StatementSource {
  db: Db;
  clientId: string;
  participantId: string;
  /** The language the descriptions are in (pickStatementLocale), not the one asked for. */
  locale: string;
  usernameKey: string;
  accountNumber: string;
  /** Ledger entries when the version was read. */
  entries: number;
  properties: Properties;
  /** Changes whenever the statement's bytes may: the ledger's length, the balance, the account number, the username, the texts. */
  version: string;
}

/**
 * Brotli's quality for a statement's compressed form (http/compressed-once): made once per ledger
 * version (decision 044), so 5 rather than 11: 200 entries 20.5 kB → 2.2 kB, 10,000 entries
 * 1.09 MB → 74 kB, for tens of milliseconds of a pool thread.
 */
export const STATEMENT_BROTLI_QUALITY = 5;

/**
 * Each build is published here as it starts (not each request served), with the client,
 * participant and locale: how often histories are rebuilt can be watched, and a test can count
 * that concurrent requests share one build.
 */
export const STATEMENT_BUILT_CHANNEL = 'rewards:statement-built';
const statementBuilds = channel(STATEMENT_BUILT_CHANNEL);

/**
 * Entries read and described between two yields to the event loop (a few ms of work;
 * node:sqlite reads synchronously, so on SQLite one query of 10,000 rows was 20–30 ms at once).
 */
const ENTRIES_PER_TURN = 1_000;

/** Paged reads torn by a concurrent write are tried again this many times in all; then the ledger is read in one query. */
const PAGED_ATTEMPTS = 3;

/** Bytes of built statements kept per process, as JSON: a 10,000-entry one is ~1.1 MB. */
const MAX_STATEMENT_BYTES = 8 * 1024 * 1024;

/**
 * How long a check on SQLite holds while nothing is committed: descriptions come from bundles in
 * the time-limited configuration cache (read-cache.ts), whose reloads no commit announces.
 */
const CHECK_HOLDS_MS = 1_000;

/** Per database (two apps over one database in a test are two processes' worth of caches). */
interface StatementCaches {
  /**
   * Built statements by client, participant, locale and version (docs/decisions/044). A request
   * first reads the version (one cheap query), so a statement is built once per change of its
   * inputs, whoever made the change and in whichever process; concurrent requests for one version
   * share one build (lru-cache's fetch). Superseded versions are never asked for again and go
   * out first.
   */
  built: LRUCache<string, ReadyStatement, StatementSource>;
  /**
   * On SQLite: the version key last checked for a participant and asked locale, under the data
   * generation read before that check (decision 027). While nobody has committed since, and for
   * CHECK_HOLDS_MS at most, the statement is served without even reading its version.
   */
  checked: LRUCache<string, string>;
}

const cachesOf = perDatabase((): StatementCaches => ({
  built: new LRUCache<string, ReadyStatement, StatementSource>({
    maxSize: MAX_STATEMENT_BYTES,
    sizeCalculation: (ready) => ready.bytes,
    fetchMethod: (_key, _stale, { context }) => buildReady(context),
    // An entry evicted while being built still answers the callers waiting for it.
    ignoreFetchAbort: true,
  }),
  checked: new LRUCache<string, string>({ max: 2_000, ttl: CHECK_HOLDS_MS, ...clockOptions }),
}));

/**
 * GET user/account/statement: the signed-in participant's own ledger, oldest first, each
 * description in the asked language. Someone else's username is refused
 * whatever the caller is; an administrator acting as the participant may read it (it changes
 * nothing).
 */
export async function getStatement(db: Db, session: Session, query: StatementQuery): Promise<StatementReply> {
  const { built, checked } = cachesOf(db);
  const asked = `${session.client_id}\u0000${session.participant_id}\u0000${query.locale}`;
  // Read before the version: a commit racing the check only makes the check useless (decision 027).
  const checkedKey = generationKey(db, asked);
  const seen = checkedKey === undefined ? undefined : checked.get(checkedKey);
  const kept = seen === undefined ? undefined : built.get(seen);
  if (kept) return own(kept, query);
  const source = await statementSource(db, session, query.locale);
  // Checked before building: asking for someone else's statement costs no build.
  if (usernameKey(query.username) !== source.usernameKey) throw notOwnStatement();
  const key = `${source.clientId}\u0000${source.participantId}\u0000${source.locale}\u0000${source.version}`;
  const ready = await built.fetch(key, { context: source });
  // fetchMethod always answers a statement or throws; lru-cache's types allow undefined.
  if (!ready) throw new Error('The statement cache answered nothing');
  if (checkedKey !== undefined) checked.set(checkedKey, key);
  return ready.reply;
}

/** A kept statement's body, for its own participant only (the username is the caller's to choose). */
function own(ready: ReadyStatement, query: StatementQuery): StatementReply {
  if (usernameKey(query.username) !== ready.usernameKey) throw notOwnStatement();
  return ready.reply;
}

/** Texts' versions by bundle object: the read cache hands out a new object every few seconds, usually with the same texts. */
const textVersions = new WeakMap<Properties, string>();

function textVersion(properties: Properties): string {
  let version = textVersions.get(properties);
  if (version === undefined) {
    version = createHash('sha256').update(JSON.stringify(properties)).digest('base64url');
    textVersions.set(properties, version);
  }
  return version;
}

/** The participant's side (one query) and the client's (configuration cache): what decides the bytes. */
async function statementSource(db: Db, session: Session, askedLocale: string): Promise<StatementSource> {
  const [participant, client, locales] = await Promise.all([
    findStatementVersion(db, session.client_id, session.participant_id),
    findClient(db, session.client_id),
    clientLocales(db, session.client_id),
  ]);
  if (!participant) throw errors.sessionRequired();
  if (!client) throw errors.unknownClient();
  const locale = pickStatementLocale(
    locales.map((l) => l.code),
    askedLocale,
    participant.locale,
    client.default_locale,
  );
  const { properties } = await buildBundle(db, session.client_id, locale);
  const version = JSON.stringify([
    Number(participant.entries),
    participant.balance,
    participant.account_number,
    participant.username_key,
    textVersion(properties),
  ]);
  return {
    db,
    clientId: session.client_id,
    participantId: session.participant_id,
    locale,
    usernameKey: participant.username_key,
    accountNumber: participant.account_number,
    entries: Number(participant.entries),
    properties,
    version,
  };
}

/**
 * Reads the entries (at least as new as the version read before) and describes them, a page at a
 * time with a yield to the event loop between pages, so that other participants' requests are
 * answered meanwhile (issue 16: one 10,000-entry statement was ~70 ms of the loop at once).
 */
async function buildReady(source: StatementSource): Promise<ReadyStatement> {
  if (statementBuilds.hasSubscribers)
    statementBuilds.publish({ clientId: source.clientId, participantId: source.participantId, locale: source.locale });
  const pages = await describedPages(source, createDescriber(source.properties, source.locale));
  const accountHistoryList = pages.flat();
  let bytes = 200;
  for (const entry of accountHistoryList) bytes += ENTRY_JSON_BYTES + entry.description.length;
  return { usernameKey: source.usernameKey, reply: { accountNumber: source.accountNumber, accountHistoryList }, bytes };
}

/** An entry's JSON beside its description: names, date, amount, quotes and commas. */
const ENTRY_JSON_BYTES = 80;

type LedgerRow = StoredDescription & { occurred_at: string; amount: number };

/**
 * The statement's entries, a page each. Pages are separate reads, so a write between two of them
 * could mix two states of the ledger; the ledger is append-only, so an unchanged count from before
 * the first page to after the last proves that nothing was written in between, and the pages are
 * one state. Otherwise they are read again.
 */
async function describedPages(source: StatementSource, describe: (entry: StoredDescription) => string): Promise<StatementEntry[][]> {
  const { db, clientId, participantId } = source;
  let expected = source.entries;
  for (let attempt = 0; attempt < PAGED_ATTEMPTS; attempt++) {
    const slices: StatementEntry[][] = [];
    let read = 0;
    let last: StatementCursor | undefined;
    let page: (LedgerRow & StatementCursor)[];
    do {
      if (read > 0) await nextTurn();
      page = await listStatementPage(db, clientId, participantId, last, ENTRIES_PER_TURN);
      if (page.length === 0) break;
      slices.push(entriesOf(page, describe));
      last = page.at(-1);
      read += page.length;
    } while (page.length === ENTRIES_PER_TURN);
    await nextTurn();
    const now = await countStatementEntries(db, clientId, participantId);
    if (now === expected && read === now) return slices;
    expected = now;
  }
  // Written to all the time: one query is one state by itself.
  const rows = await listStatementEntries(db, clientId, participantId);
  const slices: StatementEntry[][] = [];
  for (let from = 0; from < rows.length; from += ENTRIES_PER_TURN) {
    if (from > 0) await nextTurn();
    slices.push(entriesOf(rows.slice(from, from + ENTRIES_PER_TURN), describe));
  }
  return slices;
}

/** Entries with exactly the contract's three properties. */
function entriesOf(rows: readonly LedgerRow[], describe: (entry: StoredDescription) => string): StatementEntry[] {
  return rows.map((row) => ({
    date: withOffset(row.occurred_at),
    description: describe(row),
    amountOrAward: Number(row.amount),
  }));
}
