/**
 * The backup bench's big database (docs/decisions/080): the search set's participants
 * (search-data.ts: a million over four clients) and ten ledger entries each, written in SQL as
 * one INSERT … SELECT per table, the same statements on both engines. Each participant's ten
 * entries follow one plan: seven credits (awards, codes, an adjustment), each with its lot, and
 * three redemptions of 50 taken from the first lot, with their consumptions; so the ledger sums to
 * the balances (650 each) and the lots explain them, as the portal's invariant wants
 * (test/ledger-invariant.ts). Rows the width of real ones: descriptions, references on orders.
 *
 * `node scripts/bench/backup-data.ts [--participants N] [--out file.db]` makes the SQLite file
 * alone; the bench part (`npm run bench -- --only=backup`) keeps it in bench/cache/ and reuses it.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { addSearchClients, fillPostgres, fillSqlite } from './search-data.ts';

export const ENTRIES_PER_PARTICIPANT = 10;
export const BALANCE = 650;

/** k, amount, kind, when, description: one participant's ledger, oldest first. */
const PLAN: ReadonlyArray<readonly [number, number, string, string, string]> = [
  [1, 200, 'award', '2025-01-15T09:30:00.000Z', 'Welcome bonus'],
  [2, 100, 'ots', '2025-03-02T17:05:00.000Z', 'On-the-spot code 7QK4'],
  [3, 150, 'award', '2025-04-20T08:00:00.000Z', 'Quarterly purchase bonus'],
  [4, -50, 'redemption', '2025-05-11T12:45:00.000Z', 'Merchandise order: travel mug'],
  [5, 75, 'award', '2025-07-01T08:00:00.000Z', 'Survey completed'],
  [6, 100, 'ots', '2025-08-19T19:20:00.000Z', 'On-the-spot code M3X9'],
  [7, -50, 'redemption', '2025-09-30T10:10:00.000Z', 'Experiences order: cinema ticket'],
  [8, 125, 'award', '2025-11-03T08:00:00.000Z', 'Anniversary bonus'],
  [9, 50, 'adjustment', '2026-01-12T14:30:00.000Z', 'Goodwill adjustment'],
  [10, -50, 'redemption', '2026-02-27T16:00:00.000Z', 'Merchandise order: headphones'],
];
/** What the redemptions take from the first lot (200): 3 × 50. */
const FIRST_LOT_SPENT = 150;

const planValues = PLAN.map(([k, amount, kind, at, description]) => `(${k}, ${amount}, '${kind}', '${at}', '${description}')`).join(', ');
const WITH_PLAN = `with plan(k, amount, kind, at, description) as (values ${planValues})`;
const BENCH = "p.client_id like 'bench-%'";

/** The three statements, for either engine: entries (in primary key order on SQLite, where that makes the inserts appends), lots, consumptions. */
function ledgerStatements(ordered: boolean): string[] {
  const id = "p.id || '-' || plan.k";
  return [
    `${WITH_PLAN} insert into ledger_entries (id, client_id, participant_id, occurred_at, description, amount, kind, created_at, reference)
     select ${id}, p.client_id, p.id, plan.at, plan.description, plan.amount, plan.kind, plan.at,
            case when plan.kind = 'redemption' then 'order:' || p.id || ':' || plan.k end
     from participants p cross join plan where ${BENCH}${ordered ? ' order by 1' : ''}`,
    `${WITH_PLAN} insert into point_lots (id, client_id, participant_id, entry_id, earned_on, expires_on, amount, remaining, created_at)
     select ${id}, p.client_id, p.id, ${id}, substr(plan.at, 1, 10), null, plan.amount,
            case when plan.k = 1 then plan.amount - ${FIRST_LOT_SPENT} else plan.amount end, plan.at
     from participants p cross join plan where ${BENCH} and plan.amount > 0${ordered ? ' order by 1' : ''}`,
    `${WITH_PLAN} insert into lot_consumptions (entry_id, lot_id, amount)
     select ${id}, p.id || '-1', -plan.amount
     from participants p cross join plan where ${BENCH} and plan.amount < 0${ordered ? ' order by 1, 2' : ''}`,
    `update participants set balance = ${BALANCE} where client_id like 'bench-%'`,
  ];
}

const LEDGER_TABLES = "('ledger_entries', 'point_lots', 'lot_consumptions')";

/** A SQLite file of `participants` participants and ten entries each, written at `path` (replaced if there). */
export async function makeSqliteDataSet(path: string, participants: number, log: (line: string) => void): Promise<void> {
  const building = `${path}.building`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(building + suffix, { force: true });
  const setup = createDatabase({ dialect: 'sqlite', path: building });
  await migrateToLatest(setup);
  await addSearchClients(setup);
  await setup.destroy();
  let started = performance.now();
  fillSqlite(building, participants);
  log(`backup data: ${participants.toLocaleString('en-US')} participants in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  started = performance.now();
  const database = new DatabaseSync(building);
  try {
    // No journal and no syncing while it is written: the file is made again if this fails.
    database.exec('PRAGMA journal_mode = OFF');
    database.exec('PRAGMA synchronous = OFF');
    database.exec('PRAGMA cache_size = -1048576');
    // Secondary indexes built after the rows (one sort each), from their own definitions.
    const indexes = database
      .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name in ${LEDGER_TABLES} and sql is not null`)
      .all() as Array<{ name: string; sql: string }>;
    for (const index of indexes) database.exec(`drop index ${index.name}`);
    for (const statement of ledgerStatements(true)) database.exec(statement);
    for (const index of indexes) database.exec(index.sql);
    database.exec('ANALYZE');
    database.exec('PRAGMA journal_mode = WAL');
  } finally {
    database.close();
  }
  log(
    `backup data: ${(participants * ENTRIES_PER_PARTICIPANT).toLocaleString('en-US')} ledger entries with their lots in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  renameSync(building, path);
}

/** The same data set in a migrated, empty PostgreSQL database. */
export async function fillPostgresDataSet(db: Db, participants: number, log: (line: string) => void): Promise<void> {
  await addSearchClients(db);
  let started = performance.now();
  await fillPostgres(db, participants);
  log(
    `backup data (PostgreSQL): ${participants.toLocaleString('en-US')} participants in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  started = performance.now();
  // Indexes that back no constraint are dropped and built after the rows.
  const indexes = (
    await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes i
      where tablename in ${sql.raw(LEDGER_TABLES)} and schemaname = current_schema()
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db)
  ).rows;
  for (const index of indexes) await sql`drop index ${sql.ref(index.indexname)}`.execute(db);
  for (const statement of ledgerStatements(false)) await sql.raw(statement).execute(db);
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  await sql`vacuum analyze`.execute(db);
  log(
    `backup data (PostgreSQL): ${(participants * ENTRIES_PER_PARTICIPANT).toLocaleString('en-US')} ledger entries with their lots in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { participants: { type: 'string', default: '1000000' }, out: { type: 'string' } } });
  const participants = Number(values.participants);
  const out = values.out ?? `backup-${participants}.db`;
  if (existsSync(out)) throw new Error(`${out} is there already`);
  await makeSqliteDataSet(out, participants, console.log);
}
