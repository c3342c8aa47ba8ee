import { sql, type Kysely } from 'kysely';

/**
 * Issue 19 (docs/decisions/057): lots for the points already earned, so that turning a policy on
 * later is exact, and the jobs' lease.
 *
 * - point_lots: one per past credit (its id is the entry's), earned on the credit's UTC day (every
 *   client's time zone is still UTC: migration 025 has just added it), no expiry date (every
 *   policy is still none). Past debits are applied oldest first: with no dates, the spending order
 *   is the earning order, so what any sequence of debits leaves is a prefix of the credits spent,
 *   and each lot keeps what the participant's credits up to it exceed all their debits by.
 * - lot_consumptions: which lots each past debit took, by the same arithmetic (the debits' running
 *   totals against the credits').
 * Two set-based statements over the ledger, no row through JavaScript: a million entries on
 * SQLite take seconds (README, Points that expire). A debt (a balance that went below zero, which
 * only writes outside the ledger could make) is paid by the next credits.
 *
 * - job_leases: one row per background job (the expiry run now; issue 20's jobs next), held by one
 *   process until it expires, so that several processes on one database run a job one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await lotsFromLedger(db);
}

/** The lots and consumptions of the whole ledger, from nothing (exported for the bench, scripts/bench/expiry.ts). */
export async function lotsFromLedger(db: Kysely<unknown>): Promise<void> {
  // Nothing writes lots before this migration; a run interrupted half-way (SQLite runs
  // migrations outside a transaction) starts again from nothing.
  await sql`delete from lot_consumptions`.execute(db);
  await sql`delete from point_lots`.execute(db);

  const createdAt = new Date().toISOString();
  const credits = sql`select id, client_id, participant_id, amount, substr(occurred_at, 1, 10) as earned_on,
      sum(amount) over (partition by client_id, participant_id order by substr(occurred_at, 1, 10), id rows between unbounded preceding and current row) as upto
    from ledger_entries where amount > 0`;
  await sql`insert into point_lots (id, client_id, participant_id, entry_id, earned_on, expires_on, amount, remaining, created_at)
    select c.id, c.client_id, c.participant_id, c.id, c.earned_on, null, c.amount,
      case when c.upto - coalesce(d.spent, 0) >= c.amount then c.amount
           when c.upto - coalesce(d.spent, 0) <= 0 then 0
           else c.upto - coalesce(d.spent, 0) end,
      ${createdAt}
    from (${credits}) as c
    left join (select client_id, participant_id, -sum(amount) as spent from ledger_entries where amount < 0 group by client_id, participant_id) as d
      on d.client_id = c.client_id and d.participant_id = c.participant_id`.execute(db);

  // A debit covers the range (upto - amount, upto] of its participant's running spending, a lot
  // the range (upto - amount, upto] of the running credits; what they share is what it took.
  await sql`insert into lot_consumptions (entry_id, lot_id, amount)
    select d.id, c.id,
      (case when c.upto < d.upto then c.upto else d.upto end) - (case when c.upto - c.amount > d.upto - d.amount then c.upto - c.amount else d.upto - d.amount end)
    from (select id, client_id, participant_id, -amount as amount,
            sum(-amount) over (partition by client_id, participant_id order by occurred_at, created_at, id rows between unbounded preceding and current row) as upto
          from ledger_entries where amount < 0) as d
    join (${credits}) as c
      on c.client_id = d.client_id and c.participant_id = d.participant_id and c.upto > d.upto - d.amount and c.upto - c.amount < d.upto`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from lot_consumptions`.execute(db);
  await sql`delete from point_lots`.execute(db);
  await db.schema.dropTable('job_leases').execute();
}
