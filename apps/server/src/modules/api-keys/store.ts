import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ApiKey } from './tables.ts';
import { compiledOnce } from '../../db/compiled-once.ts';

type Executor = Kysely<Database>;

/** Inserts the key unless a live key of the client has its name (the partial unique index); false when it had. */
export async function insertApiKey(db: Executor, row: ApiKey): Promise<boolean> {
  const inserted = await db
    .insertInto('api_keys')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function insertBucket(db: Executor, keyId: string, tokens: number, nowMs: number): Promise<void> {
  await db.insertInto('api_key_buckets').values({ key_id: keyId, tokens, refilled_at_ms: nowMs }).execute();
}

// Every call of the program API reads its key by id: compiled once, prepared on PostgreSQL.
const selectKey = compiledOnce((db: Executor, id: string) => db.selectFrom('api_keys').selectAll().where('id', '=', id), {
  prepared: true,
});

export async function findApiKey(db: Executor, id: string): Promise<ApiKey | undefined> {
  const { rows } = await selectKey(db, id);
  return rows[0];
}

export async function findLiveKeyByName(db: Executor, clientId: string, name: string): Promise<ApiKey | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** A client's keys, newest first (a client has a handful; no paging). */
export async function listApiKeys(db: Executor, clientId: string): Promise<ApiKey[]> {
  return db.selectFrom('api_keys').selectAll().where('client_id', '=', clientId).orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Revokes a live key of the client; false when there is none (unknown, another client's, or revoked already). */
export async function revokeApiKey(
  db: Executor,
  clientId: string,
  id: string,
  change: { at: string; by: string; reason: string },
): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: change.at, revoked_by: change.by, revoke_reason: change.reason })
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/*
 * The bucket's level now: what was left, plus the refill since (never for a clock that went
 * back, never above the burst). Written out in CASE so it is the same SQL on both engines (no
 * min/max vs least/greatest).
 */
const elapsedMs = (nowMs: unknown) =>
  sql`case when ${nowMs} > ${sql.ref('refilled_at_ms')} then ${nowMs} - ${sql.ref('refilled_at_ms')} else 0 end`;
const level = (nowMs: unknown, rate: unknown, burst: unknown) => {
  const refilled = sql`${sql.ref('tokens')} + (${elapsedMs(nowMs)}) * ${rate} / 1000.0`;
  return sql<number>`case when ${refilled} > ${burst} then ${burst} else ${refilled} end`;
};

const takeOne = compiledOnce(
  (db: Executor, keyId: string, nowMs: number, rate: number, burst: number) =>
    db
      .updateTable('api_key_buckets')
      .set({
        tokens: sql<number>`${level(nowMs, rate, burst)} - 1`,
        refilled_at_ms: sql<number>`case when ${nowMs} > ${sql.ref('refilled_at_ms')} then ${nowMs} else ${sql.ref('refilled_at_ms')} end`,
      })
      .where('key_id', '=', keyId)
      .where(sql<boolean>`${level(nowMs, rate, burst)} >= 1`)
      .returning('tokens'),
  { prepared: true },
);

/**
 * Takes one token of the key's bucket, if it holds one, in ONE statement: the UPDATE refills by
 * the time elapsed and takes a token only when the level is at least one. PostgreSQL locks the
 * row and re-evaluates the condition on its newest version; SQLite has one writer: of any number
 * of parallel callers on any number of processes, no more pass than the bucket holds. True when
 * this caller got a token.
 */
export async function takeToken(db: Executor, keyId: string, nowMs: number, ratePerSecond: number, burst: number): Promise<boolean> {
  const { rows } = await takeOne(db, keyId, nowMs, ratePerSecond, burst);
  return rows.length === 1;
}

/** The bucket as it is, to tell a refused caller when to come back (read after the refusal; it decides nothing). */
export async function readBucket(db: Executor, keyId: string): Promise<{ tokens: number; refilledAtMs: number } | undefined> {
  const row = await db.selectFrom('api_key_buckets').select(['tokens', 'refilled_at_ms']).where('key_id', '=', keyId).executeTakeFirst();
  return row ? { tokens: Number(row.tokens), refilledAtMs: Number(row.refilled_at_ms) } : undefined;
}

/** Sets last_used_at unless another call did since `staleBefore`: about one write a minute per key, whatever the traffic. */
export async function touchApiKey(db: Executor, id: string, now: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

/** Records a key's first use of a scope; true only for the caller that recorded it (once ever per key and scope). */
export async function recordScopeUse(db: Executor, keyId: string, scope: string, at: string): Promise<boolean> {
  const inserted = await db
    .insertInto('api_key_scope_uses')
    .values({ key_id: keyId, scope, first_used_at: at })
    .onConflict((oc) => oc.columns(['key_id', 'scope']).doNothing())
    .returning('key_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
