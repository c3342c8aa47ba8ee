import { sql, type Kysely, type Selectable } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.ts';
import { isPostgres, type Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { EarningRulesTable, EarningRuleVersionsTable } from './tables.ts';

/** SQL of the earning rules (decision 095): the rules, their versions and their counters; nothing else. */

export type RuleRow = Selectable<EarningRulesTable>;
export type VersionRow = Selectable<EarningRuleVersionsTable>;
type Tx = Kysely<Database>;

/** Adds a rule; false when the client already has one under that id (nothing written). */
export async function insertRule(trx: Tx, row: RuleRow): Promise<boolean> {
  const result = await trx
    .insertInto('earning_rules')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function ruleOfClient(db: Tx, clientId: string, ruleId: string): Promise<RuleRow | undefined> {
  return db.selectFrom('earning_rules').selectAll().where('client_id', '=', clientId).where('id', '=', ruleId).executeTakeFirst();
}

export async function rulesOfClient(db: Db, clientId: string): Promise<RuleRow[]> {
  return db.selectFrom('earning_rules').selectAll().where('client_id', '=', clientId).orderBy('id').execute();
}

/** Which of these ids the client has rules under. */
export async function existingRuleIds(db: Tx, clientId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('earning_rules')
    .select('id')
    .where('client_id', '=', clientId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Takes the rule's next version number: one UPDATE, which also locks the rule's row until the
 * transaction ends, so concurrent changes get n+1 and n+2 in turn. undefined: no such rule.
 */
export async function takeNextVersion(trx: Tx, clientId: string, ruleId: string, now: string): Promise<number | undefined> {
  const row = await trx
    .updateTable('earning_rules')
    .set((eb) => ({ latest_version: eb('latest_version', '+', 1), updated_at: now }))
    .where('client_id', '=', clientId)
    .where('id', '=', ruleId)
    .returning('latest_version')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.latest_version);
}

export async function insertVersion(trx: Tx, row: VersionRow): Promise<void> {
  await trx.insertInto('earning_rule_versions').values(row).execute();
}

/** Every version of the client's rules (or one rule's), oldest first. */
export async function versionsOfClient(db: Tx, clientId: string, ruleId?: string): Promise<VersionRow[]> {
  let query = db.selectFrom('earning_rule_versions').selectAll().where('client_id', '=', clientId);
  if (ruleId !== undefined) query = query.where('rule_id', '=', ruleId);
  return query.orderBy('rule_id').orderBy('version').execute();
}

/**
 * The version of each of the client's rules of one event type in force at `at` (the latest to
 * begin at or before it, enabled or not: the service leaves out the disabled), by rule. Only
 * those: every edit of a rule is a version, and a program's rules gather them over the years,
 * while each event needs one a rule (decision 101: all of them were read, 470 µs an event at
 * twenty versions a rule).
 */
export async function versionsInForce(db: Tx, clientId: string, eventType: string, at: string): Promise<VersionRow[]> {
  return (await selectVersionsInForce(db, clientId, eventType, at)).rows;
}

// Every event's posting reads it: compiled to SQL once (decisions 014, 101). For each rule of the
// type, its version in force is one seek of the index of migration 049, however many it has.
const selectVersionsInForce = compiledOnce((db: Tx, clientId: string, eventType: string, at: string) =>
  db
    .selectFrom('earning_rules as r')
    .innerJoin('earning_rule_versions as v', (join) =>
      join
        .onRef('v.client_id', '=', 'r.client_id')
        .onRef('v.rule_id', '=', 'r.id')
        .on((eb) =>
          eb(
            'v.version',
            '=',
            eb
              .selectFrom('earning_rule_versions as x')
              .select('x.version')
              .whereRef('x.client_id', '=', 'r.client_id')
              .whereRef('x.rule_id', '=', 'r.id')
              .where('x.effective_from', '<=', at)
              .orderBy('x.effective_from', 'desc')
              .orderBy('x.version', 'desc')
              .limit(1),
          ),
        ),
    )
    .selectAll('v')
    .where('r.client_id', '=', clientId)
    .where('r.event_type', '=', eventType)
    .orderBy('r.id'),
);

// ---------------------------------------------------------------------------------------------
// Counters

/** One counter: a participant's use of a rule in a cap period, or (participant '' and period 'budget') the rule's budget. */
export interface CounterKey {
  ruleId: string;
  participantId: string;
  period: string;
}

export const keyText = (k: CounterKey) => `${k.ruleId}\u0000${k.participantId}\u0000${k.period}`;
/** Counters in one order (rule, participant, period), so two postings lock them alike and never deadlock. */
export const inLockOrder = (keys: readonly CounterKey[]) =>
  [...new Map(keys.map((k) => [keyText(k), k])).values()].sort((a, b) => (keyText(a) < keyText(b) ? -1 : keyText(a) > keyText(b) ? 1 : 0));

/** What the counters hold now (absent: 0), without locking: for a simulation. */
export async function readCounters(db: Tx, clientId: string, keys: readonly CounterKey[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (keys.length === 0) return found;
  const rows = await db
    .selectFrom('earning_rule_counters')
    .select(['rule_id', 'participant_id', 'period', 'points'])
    .where('client_id', '=', clientId)
    .where('rule_id', 'in', [...new Set(keys.map((k) => k.ruleId))])
    .where('participant_id', 'in', [...new Set(keys.map((k) => k.participantId))])
    .execute();
  const wanted = new Set(keys.map(keyText));
  for (const row of rows) {
    const text = keyText({ ruleId: row.rule_id, participantId: row.participant_id, period: row.period });
    if (wanted.has(text)) found.set(text, Number(row.points));
  }
  return found;
}

/**
 * Locks the counters in the posting's transaction and answers what they hold: one upsert makes
 * each missing row (0) and touches the others (ON CONFLICT DO UPDATE … RETURNING), in the
 * VALUES' fixed order, each lock held until the transaction ends on PostgreSQL (SQLite has one
 * writer at a time anyway); two statements a counter before. Whatever the posting
 * computes from these values stays true until it adds to them and commits: a hundred postings at
 * once against a monthly cap give exactly the cap. Portable, where SELECT … FOR UPDATE is not.
 */
export async function lockCounters(trx: Tx, clientId: string, keys: readonly CounterKey[], now: string): Promise<Map<string, number>> {
  // SQLite has one writer, held by the posting's transaction to its commit: a read is as good as a
  // lock there, and addToCounters' upsert makes the rows missing (decision 101).
  if (!isPostgres(trx)) return readCounters(trx, clientId, keys);
  const held = new Map<string, number>();
  const ordered = inLockOrder(keys);
  if (ordered.length === 0) return held;
  // One upsert for all: each row made if missing, else touched (its lock taken, in the VALUES' fixed order), its points returned.
  const rows = await trx
    .insertInto('earning_rule_counters')
    .values(
      ordered.map((key) => ({
        client_id: clientId,
        rule_id: key.ruleId,
        participant_id: key.participantId,
        period: key.period,
        points: 0,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['client_id', 'rule_id', 'participant_id', 'period']).doUpdateSet({ updated_at: now }))
    .returning(['rule_id', 'participant_id', 'period', 'points'])
    .execute();
  for (const row of rows)
    held.set(keyText({ ruleId: row.rule_id, participantId: row.participant_id, period: row.period }), Number(row.points));
  return held;
}

/** Adds what a posting gave to counters it has locked (lockCounters, same transaction). */
export async function addToCounters(
  trx: Tx,
  clientId: string,
  takes: ReadonlyArray<CounterKey & { points: number }>,
  now: string,
): Promise<void> {
  const sums = new Map<string, number>();
  for (const take of takes) if (take.points !== 0) sums.set(keyText(take), (sums.get(keyText(take)) ?? 0) + take.points);
  const given = inLockOrder(takes.filter((take) => sums.has(keyText(take))));
  if (given.length === 0) return;
  // One statement for all: each row made with what was given, or added to (on PostgreSQL lockCounters made them all).
  await trx
    .insertInto('earning_rule_counters')
    .values(
      given.map((take) => ({
        client_id: clientId,
        rule_id: take.ruleId,
        participant_id: take.participantId,
        period: take.period,
        points: sums.get(keyText(take)) ?? 0,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['client_id', 'rule_id', 'participant_id', 'period'])
        .doUpdateSet({ points: sql<number>`earning_rule_counters.points + excluded.points`, updated_at: now }),
    )
    .execute();
}

/** Each rule's budget spent, for the list. */
export async function budgetsSpent(db: Db, clientId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('earning_rule_counters')
    .select(['rule_id', 'points'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', '')
    .where('period', '=', 'budget')
    .execute();
  return new Map(rows.map((r) => [r.rule_id, Number(r.points)]));
}

export { keyText as counterKeyText };

/** The versions named (rule id and version) of the client's rules. */
export async function versionsByRef(
  db: Tx,
  clientId: string,
  refs: ReadonlyArray<{ ruleId: string; version: number }>,
): Promise<VersionRow[]> {
  if (refs.length === 0) return [];
  const wanted = new Set(refs.map((r) => `${r.ruleId}\u0000${r.version}`));
  const rows = await db
    .selectFrom('earning_rule_versions')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('rule_id', 'in', [...new Set(refs.map((r) => r.ruleId))])
    .where('version', 'in', [...new Set(refs.map((r) => r.version))])
    .execute();
  return rows.filter((row) => wanted.has(`${row.rule_id}\u0000${Number(row.version)}`));
}
