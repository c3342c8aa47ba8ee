import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { NewOtsCode } from './tables.ts';
import { normaliseOtsCode, otsCodeHash, otsCodeHint } from './code.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import { usernameOf } from '../participants/service.ts';

// The redeem transaction's statements, compiled to SQL once (docs/decisions/014).
const updateClaim = compiledOnce((db: Db, participantId: string, now: string, clientId: string, codeHash: string) =>
  db
    .updateTable('ots_codes')
    .set({ status: 'redeemed', redeemed_by: participantId, redeemed_at: now })
    .where('client_id', '=', clientId)
    .where('code_hash', '=', codeHash)
    .where('status', '=', 'unused')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returning(['id', 'code_hint', 'value']),
);
const selectCode = compiledOnce((db: Db, clientId: string, codeHash: string) =>
  db
    .selectFrom('ots_codes')
    .select(['id', 'code_hint', 'value', 'expires_at', 'status'])
    .where('client_id', '=', clientId)
    .where('code_hash', '=', codeHash),
);

export interface OtsCodeInput {
  code: string;
  value: number;
  expiresAt?: string | null;
  batch?: string | null;
}

/** Rows for new codes of a client (demo seed, tests, an operator's import). */
export function newOtsCodeRows(clientId: string, codes: readonly OtsCodeInput[], now: Date): NewOtsCode[] {
  return codes.map((c) => {
    const normalised = normaliseOtsCode(c.code);
    return {
      id: randomUUID(),
      client_id: clientId,
      code_hash: otsCodeHash(normalised),
      code_hint: otsCodeHint(normalised),
      value: c.value,
      expires_at: c.expiresAt ?? null,
      status: 'unused',
      redeemed_by: null,
      redeemed_at: null,
      batch: c.batch ?? null,
      created_at: now.toISOString(),
    };
  });
}

export async function insertOtsCodes(db: Db | Transaction<Database>, rows: NewOtsCode[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('ots_codes').values(rows).execute();
}

/**
 * Marks the code redeemed if, and only if, it is unused and not expired: the check and the
 * change are one UPDATE, so of many concurrent attempts exactly one changes a row (PostgreSQL
 * re-checks the condition after the row lock; SQLite has a single writer). The code claimed
 * when it did (its id, hint and value), else undefined.
 */
export async function claimOtsCode(
  trx: Transaction<Database>,
  clientId: string,
  codeHash: string,
  participantId: string,
  now: string,
): Promise<{ id: string; code_hint: string; value: number } | undefined> {
  const { rows } = await updateClaim(trx, participantId, now, clientId, codeHash);
  return rows.length === 1 ? rows[0] : undefined;
}

export async function findOtsCode(db: Db | Transaction<Database>, clientId: string, codeHash: string) {
  const { rows } = await selectCode(db, clientId, codeHash);
  return rows[0];
}

/** Whether a client has a code of this print run already (an operator names each run once). */
export async function batchTaken(db: Db | Transaction<Database>, clientId: string, batch: string): Promise<boolean> {
  const row = await db
    .selectFrom('ots_codes')
    .select('id')
    .where('client_id', '=', clientId)
    .where('batch', '=', batch)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims a print run's name in a client: true when this call inserted it, false when it was
 * taken (by an earlier run, or a concurrent one that committed first; PostgreSQL makes this
 * insert wait for that one's commit).
 */
export async function claimBatchName(trx: Transaction<Database>, clientId: string, name: string, now: string): Promise<boolean> {
  const result = await trx
    .insertInto('ots_batches')
    .values({ client_id: clientId, name, created_at: now })
    .onConflict((oc) => oc.columns(['client_id', 'name']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * The codes of one print run by hint, with the username of whoever redeemed each (the
 * participants' subquery); `only` narrows them to a hint's and caps how many.
 */
export async function listBatchCodes(db: Db, clientId: string, batch: string, only?: { hint: string; limit: number }) {
  let query = db
    .selectFrom('ots_codes as c')
    .select(['c.code_hint', 'c.value', 'c.status', 'c.expires_at', 'c.redeemed_at', 'c.created_at'])
    .select(usernameOf(db, 'c.client_id', 'c.redeemed_by').as('username'))
    .where('c.client_id', '=', clientId)
    .where('c.batch', '=', batch);
  if (only) query = query.where('c.code_hint', 'like', `%${only.hint.replace(/[%_\\]/g, '')}`).limit(only.limit);
  return query.orderBy('c.code_hint').execute();
}

/**
 * Per print run of a client (or the one named), oldest first: its codes counted by state (unused
 * means not expired at `now`), its values' range and its latest expiry (and how many never expire).
 */
export async function countBatches(db: Db, clientId: string, now: string, batch?: string) {
  let query = db
    .selectFrom('ots_codes')
    .select((eb) => [
      'batch',
      eb.fn.countAll<string | number>().as('total'),
      eb.fn
        .sum<string | number>(
          eb
            .case()
            .when(eb.and([eb('status', '=', 'unused'), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('unused'),
      eb.fn.sum<string | number>(eb.case().when('status', '=', 'redeemed').then(1).else(0).end()).as('redeemed'),
      eb.fn.sum<string | number>(eb.case().when('status', '=', 'void').then(1).else(0).end()).as('void'),
      eb.fn.sum<string | number>(eb.case().when('expires_at', 'is', null).then(1).else(0).end()).as('no_expiry'),
      eb.fn.max<string | null>('expires_at').as('last_expiry'),
      eb.fn.min<string | number>('value').as('min_value'),
      eb.fn.max<string | number>('value').as('max_value'),
      eb.fn.min<string>('created_at').as('created'),
    ])
    .where('client_id', '=', clientId);
  if (batch !== undefined) query = query.where('batch', '=', batch);
  return query.groupBy('batch').orderBy('created').execute();
}

/** A client's codes by hash, or of a print run (and one hint of it), for voiding. */
export async function findCodesToVoid(db: Db, clientId: string, which: { codeHash: string } | { batch: string; hint?: string }) {
  let query = db.selectFrom('ots_codes').select(['id', 'code_hint', 'batch', 'status', 'expires_at']).where('client_id', '=', clientId);
  if ('codeHash' in which) query = query.where('code_hash', '=', which.codeHash);
  else {
    query = query.where('batch', '=', which.batch);
    if (which.hint !== undefined) query = query.where('code_hint', '=', which.hint);
  }
  return query.execute();
}

/** Voids those of `ids` that are still unused (one redeemed meanwhile stays redeemed); how many changed. */
export async function voidUnusedCodes(trx: Transaction<Database>, clientId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx
    .updateTable('ots_codes')
    .set({ status: 'void' })
    .where('client_id', '=', clientId)
    .where('status', '=', 'unused')
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface CodeCounts {
  batch: string | null;
  status: string;
  codes: number;
  /** Of `codes`, past their expiry. */
  pastExpiry: number;
  points: number;
}

/**
 * Codes per batch and status, with how many are past their expiry (read by the covering index):
 * the reports' codes figures (docs/decisions/067). PostgreSQL's bigint sums come back as text.
 */
export async function codesByBatch(db: Db, clientId: string, now: string): Promise<CodeCounts[]> {
  const rows = await db
    .selectFrom('ots_codes')
    .select([
      'batch',
      'status',
      sql<string>`count(*)`.as('codes'),
      sql<string>`sum(case when expires_at is not null and expires_at <= ${now} then 1 else 0 end)`.as('past_expiry'),
      sql<string>`sum(value)`.as('points'),
    ])
    .where('client_id', '=', clientId)
    .groupBy(['batch', 'status'])
    .execute();
  return rows.map((r) => ({
    batch: r.batch,
    status: r.status,
    codes: Number(r.codes ?? 0),
    pastExpiry: Number(r.past_expiry ?? 0),
    points: Number(r.points ?? 0),
  }));
}

/** The codes a participant redeemed, newest first, `limit` at most (the console's participant page). */
export async function codesRedeemedBy(db: Db, clientId: string, participantId: string, limit: number) {
  return db
    .selectFrom('ots_codes')
    .select(['code_hint', 'value', 'redeemed_at', 'batch'])
    .where('client_id', '=', clientId)
    .where('redeemed_by', '=', participantId)
    .orderBy('redeemed_at', 'desc')
    .limit(limit)
    .execute();
}
