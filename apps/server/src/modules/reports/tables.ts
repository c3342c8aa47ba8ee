import type { ColumnType } from 'kysely';

/** Sums a driver may hand back as text (PostgreSQL's bigint): read through Number(). */
type Big = ColumnType<number | string, number, number>;

/** Per client, the creation time up to which the month tables hold the ledger and the orders (migration 031, decision 067). */
export interface ReportWatermarksTable {
  client_id: string;
  /** ISO time; '' before the first fold. Rows created before it are in the month tables. */
  through: string;
  refreshed_at: string;
}

/** The ledger per client, month of occurred_at (UTC) and kind. */
export interface ReportLedgerMonthsTable {
  client_id: string;
  /** YYYY-MM */
  month: string;
  kind: string;
  /** Sum of the positive amounts. */
  credits: Big;
  /** Sum of the negative amounts (≤ 0). */
  debits: Big;
  entries: Big;
}

/** Catalog orders per client, month of created_at (UTC) and partner. */
export interface ReportOrderMonthsTable {
  client_id: string;
  month: string;
  partner_id: string;
  orders: Big;
  points: Big;
}
