import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The reports' reads (docs/decisions/067): their own month tables and watermark, the only rows
 * they write. What they count of participants, sign-ins, orders and clients the owning modules'
 * services answer, and so do the ledger's and the codes' sums (issue 30 §3). Sums come back as
 * text from PostgreSQL's bigint: every figure goes through Number().
 */

export interface LedgerMonthRow {
  month: string;
  kind: string;
  credits: number;
  debits: number;
}

export interface OrderMonthRow {
  month: string;
  partnerId: string;
  orders: number;
  points: number;
}

const num = (value: unknown) => Number(value ?? 0);

/** '' when nothing was ever folded. */
export async function readWatermark(db: Db, clientId: string): Promise<string> {
  const row = await db.selectFrom('report_watermarks').select('through').where('client_id', '=', clientId).executeTakeFirst();
  return row?.through ?? '';
}

/** The folded months. */
export async function foldedLedgerMonths(db: Db, clientId: string): Promise<LedgerMonthRow[]> {
  const rows = await db
    .selectFrom('report_ledger_months')
    .select(['month', 'kind', 'credits', 'debits'])
    .where('client_id', '=', clientId)
    .execute();
  return rows.map((r) => ({ month: r.month, kind: r.kind, credits: num(r.credits), debits: num(r.debits) }));
}

export async function foldedOrderMonths(db: Db, clientId: string): Promise<OrderMonthRow[]> {
  const rows = await db
    .selectFrom('report_order_months')
    .select(['month', 'partner_id', 'orders', 'points'])
    .where('client_id', '=', clientId)
    .execute();
  return rows.map((r) => ({ month: r.month, partnerId: r.partner_id, orders: num(r.orders), points: num(r.points) }));
}

/**
 * Folds what was created in [from, to) into the month tables and moves the watermark from
 * `from` to `to`, in one transaction; only if the watermark is still `from` (a concurrent fold
 * of the same span wins once). The sums were read before, outside the transaction, so a long
 * first fold never holds SQLite's write lock. False: another fold came first, nothing written.
 */
export async function applyFold(
  db: Db,
  clientId: string,
  from: string,
  to: string,
  /** The ledger's sums (the ledger's service, ledgerMonthsCreated). */
  ledger: ReadonlyArray<LedgerMonthRow & { entries: number }>,
  orders: readonly OrderMonthRow[],
  now: string,
): Promise<boolean> {
  await db
    .insertInto('report_watermarks')
    .values({ client_id: clientId, through: '', refreshed_at: now })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('report_watermarks')
      .set({ through: to, refreshed_at: now })
      .where('client_id', '=', clientId)
      .where('through', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    for (const row of ledger)
      await trx
        .insertInto('report_ledger_months')
        .values({ client_id: clientId, month: row.month, kind: row.kind, credits: row.credits, debits: row.debits, entries: row.entries })
        .onConflict((oc) =>
          oc.columns(['client_id', 'month', 'kind']).doUpdateSet({
            credits: sql`report_ledger_months.credits + excluded.credits`,
            debits: sql`report_ledger_months.debits + excluded.debits`,
            entries: sql`report_ledger_months.entries + excluded.entries`,
          }),
        )
        .execute();
    for (const row of orders)
      await trx
        .insertInto('report_order_months')
        .values({ client_id: clientId, month: row.month, partner_id: row.partnerId, orders: row.orders, points: row.points })
        .onConflict((oc) =>
          oc.columns(['client_id', 'month', 'partner_id']).doUpdateSet({
            orders: sql`report_order_months.orders + excluded.orders`,
            points: sql`report_order_months.points + excluded.points`,
          }),
        )
        .execute();
    return true;
  });
}
