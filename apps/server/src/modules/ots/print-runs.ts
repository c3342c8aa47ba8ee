import type { Db } from '../../db/database.ts';
import type { OtsCode } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { normaliseOtsCode, otsCodeHash } from './code.ts';
import { batchTaken, countBatches, findCodesToVoid, insertOtsCodes, listBatchCodes, newOtsCodeRows, voidUnusedCodes } from './store.ts';

/**
 * An operator's print runs of on-the-spot codes (`rewards codes`, decision 008): storing a new
 * run, counting runs by state, voiding codes. Each write commits with its audit entry. Refusals
 * are ApiErrors, which the command prints as one line.
 */

/** Codes per statement (11 parameters each when inserted). */
const CHUNK = 500;

export type CodeState = 'unused' | 'redeemed' | 'void' | 'expired';

/** The state an operator cares about: an unused code past its date is expired. */
export function codeState(code: Pick<OtsCode, 'status' | 'expires_at'>, now: string): CodeState {
  if (code.status === 'unused' && code.expires_at !== null && code.expires_at <= now) return 'expired';
  return code.status;
}

export interface PrintRun {
  batch: string;
  value: number;
  expiresAt: string | null;
}

/**
 * Stores the hashes of a new print run's codes, in one transaction with its audit entry. A run's
 * name is used once per client: a second run of the same name is refused and nothing is written.
 */
export async function storePrintRun(db: Db, actor: Actor, clientId: string, run: PrintRun, codes: readonly string[], now = new Date()) {
  const rows = newOtsCodeRows(
    clientId,
    codes.map((code) => ({ code, value: run.value, expiresAt: run.expiresAt, batch: run.batch })),
    now,
  );
  await db.transaction().execute(async (trx) => {
    if (await batchTaken(trx, clientId, run.batch))
      throw errors.validation(`Batch "${run.batch}" exists already in ${clientId}; name the new print run differently`);
    for (let from = 0; from < rows.length; from += CHUNK) await insertOtsCodes(trx, rows.slice(from, from + CHUNK));
    await recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'codes.generate',
        subject: run.batch,
        details: { count: codes.length, value: run.value, expiresAt: run.expiresAt },
        origin: actor.origin,
      },
      now,
    );
  });
}

/** A client's print runs, oldest first, with their codes counted by state. */
export async function listPrintRuns(db: Db, clientId: string, now = new Date().toISOString()) {
  const rows = await countBatches(db, clientId, now);
  return rows.map((r) => {
    const total = Number(r.total);
    const unused = Number(r.unused);
    const redeemed = Number(r.redeemed);
    const voided = Number(r.void);
    return { batch: r.batch, createdAt: r.created, total, unused, redeemed, void: voided, expired: total - unused - redeemed - voided };
  });
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

/** Which codes to void: one by its text, or a print run (one code of it by the last four characters). */
export type VoidSelection = { code: string } | { batch: string; hint?: string };

/**
 * Voids unused codes, with an audit entry when any changed. One code named (by text or hint)
 * that was redeemed is refused; of a whole run, the unused ones are voided and the rest stay.
 */
export async function voidCodes(db: Db, actor: Actor, clientId: string, which: VoidSelection, now = new Date()) {
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

  const voided = await db.transaction().execute(async (trx) => {
    const ids = found.map((c) => c.id);
    let changed = 0;
    for (let from = 0; from < ids.length; from += CHUNK) changed += await voidUnusedCodes(trx, clientId, ids.slice(from, from + CHUNK));
    if (changed > 0) {
      await recordAudit(
        trx,
        {
          clientId,
          actor: actor.name,
          actorKind: actor.kind,
          action: 'codes.void',
          subject,
          details: { voided: changed },
          origin: actor.origin,
        },
        now,
      );
    }
    return changed;
  });
  const expired = found.filter((c) => codeState(c, at) === 'expired').length;
  return { subject, voided, expired };
}
