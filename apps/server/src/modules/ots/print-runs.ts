import { randomBytes } from 'node:crypto';
import { BATCH_CSV_COLUMNS, MAX_BATCH_COUNT, MAX_BATCH_NAME, MAX_CODE_VALUE, MAX_DETAIL_CODES } from '@rewards/contract/console-codes';
import { csvText } from '@rewards/contract/csv';
import type { Db } from '../../db/database.ts';
import type { OtsCode } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { normaliseOtsCode, OTS_ALPHABET, otsCodeHash } from './code.ts';
import { codesErrors } from './errors.ts';
import {
  batchTaken,
  claimBatchName,
  countBatches,
  findCodesToVoid,
  insertOtsCodes,
  listBatchCodes,
  newOtsCodeRows,
  voidUnusedCodes,
} from './store.ts';

/**
 * An operator's print runs of on-the-spot codes (`rewards codes`, decision 008) and the console's
 * code batches (decision 063), one set of rules for both: checking and minting a new run, storing
 * it, counting runs by state, voiding codes. Each write commits with its audit entry. Refusals
 * are ApiErrors, which the command prints as one line and the console shows.
 */

/** Codes per statement (11 parameters each when inserted). */
const CHUNK = 500;

/** 16 characters of a 25-letter alphabet: log2(25^16) = 74 random bits, read as XXXX-XXXX-XXXX-XXXX. */
export const CODE_LENGTH = 16;
const GROUP = 4;

/** A new code: uniform over the alphabet (bytes past the last whole multiple of 25 are drawn again). */
export function newCode(): string {
  const limit = 256 - (256 % OTS_ALPHABET.length);
  let code = '';
  while (code.length < CODE_LENGTH) {
    for (const byte of randomBytes(CODE_LENGTH * 2)) {
      if (byte < limit && code.length < CODE_LENGTH) code += OTS_ALPHABET[byte % OTS_ALPHABET.length];
    }
  }
  return code.match(new RegExp(`.{1,${GROUP}}`, 'g'))!.join('-');
}

/** `count` distinct new codes. */
export function mintCodes(count: number): string[] {
  const plain = new Set<string>();
  while (plain.size < count) plain.add(newCode());
  return [...plain];
}

export type CodeState = 'unused' | 'redeemed' | 'void' | 'expired';

/** The state an operator cares about: an unused code past its date is expired. */
export function codeState(code: Pick<OtsCode, 'status' | 'expires_at'>, now: string): CodeState {
  if (code.status === 'unused' && code.expires_at !== null && code.expires_at <= now) return 'expired';
  return code.status;
}

export interface PrintRun {
  batch: string;
  count: number;
  value: number;
  expiresAt: string | null;
}

/** What a new print run is asked with, from the command's flags or the console's form. */
export interface PrintRunRequest {
  count: number;
  value: number;
  /** A day (through its end, UTC) or an ISO 8601 time; absent: never expires. */
  expires?: string | undefined;
  /** Absent: generated-<time>. */
  batch?: string | undefined;
}

/**
 * Checks a new print run against the rules (the same for the command and the console) and
 * settles its expiry and name; a bad value is a 400 naming it, before anything is minted.
 */
export function planPrintRun(request: PrintRunRequest, now = new Date()): PrintRun {
  const { count, value } = request;
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_BATCH_COUNT)
    throw errors.validation(`The count must be a whole number from 1 to ${MAX_BATCH_COUNT}`);
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CODE_VALUE)
    throw errors.validation(`The value must be a whole number of points from 1 to ${MAX_CODE_VALUE}`);
  const expiresAt = request.expires === undefined ? null : expiryOf(request.expires);
  if (expiresAt !== null && expiresAt <= now.toISOString()) throw errors.validation('The expiry is in the past');
  const batch =
    request.batch === undefined
      ? `generated-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}`
      : batchName(request.batch);
  return { batch, count, value, expiresAt };
}

/** A day means through its end (UTC): "valid until 2026-12-31" includes the 31st. */
function expiryOf(value: string): string {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const end = new Date(`${text}T23:59:59.999Z`);
    if (!Number.isNaN(end.getTime()) && end.toISOString().slice(0, 10) === text) return end.toISOString();
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const at = new Date(text);
    if (!Number.isNaN(at.getTime())) return at.toISOString();
  }
  throw errors.validation('The expiry must be a date such as 2026-12-31 or 2026-12-31T18:00:00Z');
}

/**
 * A batch name: 1 to MAX_BATCH_NAME characters after trimming, no control characters, and not
 * starting with what a spreadsheet would run as a formula (the name is a column of the CSV).
 */
function batchName(value: string): string {
  const name = value.trim();
  if (!name || name.length > MAX_BATCH_NAME) throw errors.validation(`The batch name must be 1 to ${MAX_BATCH_NAME} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw errors.validation('The batch name may not contain control characters');
  if (/^[=+\-@]/.test(name)) throw errors.validation('The batch name may not start with =, +, - or @');
  return name;
}

/**
 * The file of a new run's codes, as `codes generate --out` writes it and the console downloads it:
 * by the one CSV writer (decision 073), the value a number; no byte order mark, as before (the file
 * goes to print shops' tools as much as to spreadsheets).
 */
export function printRunCsv(run: PrintRun, codes: readonly string[]): string {
  return csvText(
    BATCH_CSV_COLUMNS,
    codes.map((code) => [code, run.value, run.expiresAt ?? '', run.batch]),
    { bom: false },
  );
}

/**
 * Stores the hashes of a new print run's codes, in one transaction with its audit entry (count,
 * value, expiry, name and reason; never a code). A run's name is used once per client: its row
 * in ots_batches is the claim, so of two runs of one name at once exactly one is stored; the
 * other is refused (409) and writes nothing. Returns the audit entry's id.
 */
export async function storePrintRun(
  db: Db,
  actor: Actor,
  clientId: string,
  run: PrintRun,
  codes: readonly string[],
  now = new Date(),
  reason?: string,
): Promise<string> {
  const rows = newOtsCodeRows(
    clientId,
    codes.map((code) => ({ code, value: run.value, expiresAt: run.expiresAt, batch: run.batch })),
    now,
  );
  return db.transaction().execute(async (trx) => {
    // The claim first: on PostgreSQL a twin's insert waits here for this commit, then inserts nothing.
    // Codes of the name stored otherwise (the demo seed, older imports) count as taken too.
    if (!(await claimBatchName(trx, clientId, run.batch, now.toISOString())) || (await batchTaken(trx, clientId, run.batch)))
      throw codesErrors.batchNameTaken(run.batch, clientId);
    for (let from = 0; from < rows.length; from += CHUNK) await insertOtsCodes(trx, rows.slice(from, from + CHUNK));
    return recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'codes.generate',
        subject: run.batch,
        details: { count: codes.length, value: run.value, expiresAt: run.expiresAt, ...(reason === undefined ? {} : { reason }) },
        origin: actor.origin,
      },
      now,
    );
  });
}

/**
 * A new print run from a request, for the console and the program API alike: planned (checked),
 * minted, stored with its audit entry, and its CSV — the only copy of the codes, which the caller
 * answers with once (decision 063).
 */
export async function generatePrintRun(
  db: Db,
  actor: Actor,
  clientId: string,
  request: PrintRunRequest,
  reason: string,
  now = new Date(),
): Promise<{ run: PrintRun; csv: string }> {
  const run = planPrintRun(request, now);
  const codes = mintCodes(run.count);
  await storePrintRun(db, actor, clientId, run, codes, now, reason);
  return { run, csv: printRunCsv(run, codes) };
}

/** A file name of the batch's name, in the characters every browser and shell takes. */
export function printRunFileName(batch: string): string {
  const slug = batch
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `codes-${slug || 'batch'}.csv`;
}

type BatchCounts = Awaited<ReturnType<typeof countBatches>>[number];

function summaryOf(r: BatchCounts) {
  const total = Number(r.total);
  const unused = Number(r.unused);
  const redeemed = Number(r.redeemed);
  const voided = Number(r.void);
  const value = Number(r.min_value) === Number(r.max_value) ? Number(r.min_value) : null;
  return {
    batch: r.batch,
    createdAt: r.created,
    value,
    // A code without an expiry never expires: the batch then has none to show.
    expiresAt: Number(r.no_expiry) > 0 ? null : r.last_expiry,
    total,
    unused,
    redeemed,
    void: voided,
    expired: total - unused - redeemed - voided,
  };
}

/** A client's print runs, oldest first (the command) or newest first (the console), with their codes counted by state. */
export async function listPrintRuns(db: Db, clientId: string, now = new Date().toISOString(), order: 'oldest' | 'newest' = 'oldest') {
  const rows = (await countBatches(db, clientId, now)).map(summaryOf);
  return order === 'oldest' ? rows : rows.reverse();
}

/** One print run: its codes by hint with their state, and the counts; undefined if the client has no such run. */
export async function describePrintRun(db: Db, clientId: string, batch: string, now = new Date().toISOString()) {
  const codes = await listBatchCodes(db, clientId, batch);
  if (codes.length === 0) return undefined;
  const counts = { total: codes.length, unused: 0, redeemed: 0, void: 0, expired: 0 };
  const items = codes.map((c) => {
    const state = codeState(c, now);
    counts[state] += 1;
    return { hint: c.code_hint, value: c.value, state, expiresAt: c.expires_at, redeemedAt: c.redeemed_at, redeemedBy: c.username ?? null };
  });
  return { counts, codes: items };
}

/**
 * The console's view of one batch: its counts (over every code), and its codes by hint, those
 * ending in `hint` when given, at most MAX_DETAIL_CODES of them. 404 when the client has no such batch.
 */
export async function batchDetail(db: Db, clientId: string, batch: string, hint?: string, now = new Date().toISOString()) {
  const summary = (await countBatches(db, clientId, now, batch)).map(summaryOf)[0];
  if (!summary) throw errors.notFound();
  const wanted = hint === undefined ? undefined : normaliseOtsCode(hint);
  const codes = await listBatchCodes(db, clientId, batch, wanted === undefined ? undefined : { hint: wanted, limit: MAX_DETAIL_CODES + 1 });
  const matched = wanted === undefined ? summary.total : codes.length;
  const shown = codes.slice(0, MAX_DETAIL_CODES).map((c) => ({
    hint: c.code_hint,
    value: c.value,
    state: codeState(c, now),
    expiresAt: c.expires_at,
    redeemedAt: c.redeemed_at,
    redeemedBy: c.username ?? null,
  }));
  return { ...summary, name: summary.batch, codes: shown, matched };
}

/** Which codes to void: one by its text, or a print run (one code of it by the last four characters). */
export type VoidSelection = { code: string } | { batch: string; hint?: string };

/**
 * Voids unused codes, with an audit entry when any changed (with the reason, when given). One
 * code named (by text or hint) that was redeemed is refused; of a whole run, the unused ones are
 * voided and the rest stay; none left to void answers 0 and writes nothing.
 */
export async function voidCodes(db: Db, actor: Actor, clientId: string, which: VoidSelection, now = new Date(), reason?: string) {
  const at = now.toISOString();
  let subject: string;
  let found;
  if ('code' in which) {
    const normalised = normaliseOtsCode(which.code);
    if (!normalised) throw errors.validation('--code is empty');
    found = await findCodesToVoid(db, clientId, { codeHash: otsCodeHash(normalised) });
    subject = `…${normalised.slice(-4)}`;
  } else if (which.hint !== undefined) {
    const hint = normaliseOtsCode(which.hint);
    if (!hint) throw errors.validation('The hint is empty');
    found = await findCodesToVoid(db, clientId, { batch: which.batch, hint });
    subject = `${which.batch} …${hint}`;
  } else {
    found = await findCodesToVoid(db, clientId, { batch: which.batch });
    subject = which.batch;
  }
  if (found.length === 0) throw errors.validation(`No such code in ${clientId}`);
  const single = 'code' in which || which.hint !== undefined;
  if (!('code' in which) && which.hint !== undefined && found.length > 1)
    throw errors.validation(`${found.length} codes of batch ${which.batch} end in ${which.hint}; void them by --code`);
  if (single && found[0]!.status === 'redeemed')
    throw errors.validation(`Code …${found[0]!.code_hint} was redeemed already; it cannot be voided`);

  const { voided, auditId } = await db.transaction().execute(async (trx) => {
    const ids = found.map((c) => c.id);
    let changed = 0;
    for (let from = 0; from < ids.length; from += CHUNK) changed += await voidUnusedCodes(trx, clientId, ids.slice(from, from + CHUNK));
    if (changed === 0) return { voided: 0, auditId: null };
    const id = await recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'codes.void',
        subject,
        details: { voided: changed, ...(reason === undefined ? {} : { reason }) },
        origin: actor.origin,
      },
      now,
    );
    return { voided: changed, auditId: id };
  });
  const expired = voided === 0 ? 0 : found.filter((c) => codeState(c, at) === 'expired').length;
  return { subject, voided, expired, auditId };
}
