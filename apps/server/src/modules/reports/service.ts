import {
  ACTIVE_DAYS,
  type ClientSummary,
  type ClientsComparison,
  type CodeBatchRow,
  type CodesReport,
  type OrdersReport,
  type ParticipantsReport,
  type PointsMonth,
  type PointsReport,
} from '@rewards/contract/console-reports';
import type { Db } from '../../db/database.ts';
import { listCatalogPartners, orderMonthsCreated } from '../catalog/service.ts';
import { clientNames } from '../clients/service.ts';
import { ledgerMonthsCreated } from '../ledger/service.ts';
import { codesByBatch } from '../ots/service.ts';
import { participantsByStatus } from '../participants/service.ts';
import { signedInSince } from '../sessions/service.ts';
import { applyFold, foldedLedgerMonths, foldedOrderMonths, readWatermark, type LedgerMonthRow, type OrderMonthRow } from './store.ts';

/**
 * The console's reports (issue 20, section 5, docs/decisions/067).
 *
 * Points and orders are read from month tables folded from the ledger and the orders up to a
 * watermark of creation time, plus what was created since, read live: exact, and the live part
 * is at most FOLD_EVERY_MS + SETTLE_MS of writes. Nothing is added to the ledger's write path.
 */

/**
 * A transaction's rows carry the created_at taken in code before it commits. The watermark stays
 * this far behind now, so no row can commit behind it later (a transaction would have to take
 * longer than this between taking its time and committing).
 */
export const SETTLE_MS = 5 * 60_000;
/** A report folds when the live part has grown to this span; until then it reads it live. */
export const FOLD_EVERY_MS = 15 * 60_000;

const DAY_MS = 86_400_000;

/**
 * Folds what was created since the watermark, up to SETTLE_MS ago, into the month tables, when
 * that span is FOLD_EVERY_MS or more (`always`: any span). The first fold of a client reads its
 * whole ledger once. Returns whether this call folded.
 */
export async function foldReports(db: Db, clientId: string, now = new Date(), options: { always?: boolean } = {}): Promise<boolean> {
  const from = await readWatermark(db, clientId);
  const to = new Date(now.getTime() - SETTLE_MS).toISOString();
  if (to <= from) return false;
  if (!options.always && from !== '' && Date.parse(to) - Date.parse(from) < FOLD_EVERY_MS) return false;
  const [ledger, orders] = await Promise.all([ledgerMonthsCreated(db, clientId, from, to), orderMonthsCreated(db, clientId, from, to)]);
  return applyFold(db, clientId, from, to, ledger, orders, now.toISOString());
}

/**
 * The folded rows and the live ones since the same watermark. The watermark is read before and
 * after the folded rows (a fold moves it and the rows in one commit): equal, the rows are those
 * of that watermark; else read again.
 */
async function current<T>(
  db: Db,
  clientId: string,
  folded: (db: Db, clientId: string) => Promise<T[]>,
  live: (db: Db, clientId: string, from: string) => Promise<T[]>,
): Promise<T[]> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await readWatermark(db, clientId);
    const rows = await folded(db, clientId);
    const after = await readWatermark(db, clientId);
    if (before === after) return [...rows, ...(await live(db, clientId, before))];
    // A fold every FOLD_EVERY_MS at most: two in a row during one read cannot happen in practice.
    if (attempt === 3) throw new Error('The report totals kept moving while they were read');
  }
}

/** The last `count` months (UTC, YYYY-MM), oldest first, the month of `now` last. */
export function lastMonths(now: Date, count: number): string[] {
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(at.toISOString().slice(0, 7));
  }
  return months;
}

export async function participantsReport(db: Db, clientId: string, now = new Date()): Promise<ParticipantsReport> {
  const since = new Date(now.getTime() - ACTIVE_DAYS * DAY_MS).toISOString();
  const [byStatus, active] = await Promise.all([participantsByStatus(db, clientId), signedInSince(db, clientId, since)]);
  byStatus.sort((a, b) => b.count - a.count || a.status.localeCompare(b.status));
  return {
    clientId,
    at: now.toISOString(),
    total: byStatus.reduce((sum, s) => sum + s.count, 0),
    byStatus,
    active: { days: ACTIVE_DAYS, since, count: active },
  };
}

async function ledgerMonths(db: Db, clientId: string, now: Date): Promise<LedgerMonthRow[]> {
  await foldReports(db, clientId, now);
  return current(db, clientId, foldedLedgerMonths, (d, c, from) => ledgerMonthsCreated(d, c, from));
}

/** Issued, redeemed, expired and other debits per month, and the liability at each month's end. */
export function pointsMonths(rows: readonly LedgerMonthRow[], months: readonly string[]): { months: PointsMonth[]; outstanding: number } {
  const byMonth = new Map<string, PointsMonth>();
  let before = 0;
  let total = 0;
  const first = months[0] ?? '';
  for (const row of rows) {
    total += row.credits + row.debits;
    if (row.month < first) {
      before += row.credits + row.debits;
      continue;
    }
    const month = byMonth.get(row.month) ?? { month: row.month, issued: 0, redeemed: 0, expired: 0, adjusted: 0, outstanding: 0 };
    month.issued += row.credits;
    if (row.kind === 'redemption') month.redeemed -= row.debits;
    else if (row.kind === 'expiry') month.expired -= row.debits;
    else month.adjusted -= row.debits;
    byMonth.set(row.month, month);
  }
  let outstanding = before;
  const result = months.map((month) => {
    const m = byMonth.get(month) ?? { month, issued: 0, redeemed: 0, expired: 0, adjusted: 0, outstanding: 0 };
    outstanding += m.issued - m.redeemed - m.expired - m.adjusted;
    return { ...m, outstanding };
  });
  return { months: result, outstanding: total };
}

export async function pointsReport(db: Db, clientId: string, monthCount: number, now = new Date()): Promise<PointsReport> {
  const rows = await ledgerMonths(db, clientId, now);
  return { clientId, at: now.toISOString(), ...pointsMonths(rows, lastMonths(now, monthCount)) };
}

function codeRow(counts: Awaited<ReturnType<typeof codesByBatch>>): Omit<CodeBatchRow, 'batch'> {
  const row = { generated: 0, redeemed: 0, expired: 0, voided: 0, open: 0, redemptionRate: 0, pointsRedeemed: 0 };
  for (const c of counts) {
    row.generated += c.codes;
    if (c.status === 'redeemed') {
      row.redeemed += c.codes;
      row.pointsRedeemed += c.points;
    } else if (c.status === 'void') row.voided += c.codes;
    else {
      row.expired += c.pastExpiry;
      row.open += c.codes - c.pastExpiry;
    }
  }
  row.redemptionRate = row.generated === 0 ? 0 : row.redeemed / row.generated;
  return row;
}

export async function codesReport(db: Db, clientId: string, now = new Date()): Promise<CodesReport> {
  const counts = await codesByBatch(db, clientId, now.toISOString());
  const batches = [...new Set(counts.map((c) => c.batch))]
    .sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map((batch) => ({ batch, ...codeRow(counts.filter((c) => c.batch === batch)) }));
  return { clientId, at: now.toISOString(), batches, total: codeRow(counts) };
}

async function orderMonths(db: Db, clientId: string, now: Date): Promise<OrderMonthRow[]> {
  await foldReports(db, clientId, now);
  return current(db, clientId, foldedOrderMonths, (d, c, from) => orderMonthsCreated(d, c, from));
}

export async function ordersReport(db: Db, clientId: string, monthCount: number, now = new Date()): Promise<OrdersReport> {
  const months = lastMonths(now, monthCount);
  const [rows, partnerRows] = await Promise.all([orderMonths(db, clientId, now), listCatalogPartners(db, clientId)]);
  const names = new Map(partnerRows.map((p) => [p.id, p.name]));
  const first = months[0]!;
  const byMonth = new Map(months.map((month) => [month, { month, orders: 0, points: 0 }]));
  const byPartner = new Map<string, { partnerId: string; name: string; orders: number; points: number }>();
  for (const row of rows) {
    if (row.month < first) continue;
    const month = byMonth.get(row.month);
    // A month after the current one cannot hold orders (their time is their creation); skip it if a clock jumped.
    if (!month) continue;
    month.orders += row.orders;
    month.points += row.points;
    const partner = byPartner.get(row.partnerId) ?? {
      partnerId: row.partnerId,
      name: names.get(row.partnerId) ?? row.partnerId,
      orders: 0,
      points: 0,
    };
    partner.orders += row.orders;
    partner.points += row.points;
    byPartner.set(row.partnerId, partner);
  }
  const partners = [...byPartner.values()].sort((a, b) => b.orders - a.orders || a.name.localeCompare(b.name));
  return { clientId, at: now.toISOString(), months: [...byMonth.values()], partners };
}

/** Every client of `clientIds` side by side over the last `monthCount` months. */
export async function compareClients(
  db: Db,
  clientIds: readonly string[],
  monthCount: number,
  now = new Date(),
): Promise<ClientsComparison> {
  const months = lastMonths(now, monthCount);
  const names = new Map((await clientNames(db, clientIds)).map((c) => [c.id, c.name]));
  const clients: ClientSummary[] = [];
  // One client after the other: on SQLite the reads share one connection anyway, and a fold of a
  // big client should not run beside six others.
  for (const clientId of clientIds) {
    if (!names.has(clientId)) continue;
    const [people, points, codes, orders] = [
      await participantsReport(db, clientId, now),
      await pointsReport(db, clientId, monthCount, now),
      await codesReport(db, clientId, now),
      await ordersReport(db, clientId, monthCount, now),
    ];
    const sum = (key: 'issued' | 'redeemed' | 'expired') => points.months.reduce((total, m) => total + m[key], 0);
    clients.push({
      clientId,
      name: names.get(clientId)!,
      participants: people.total,
      active: people.active.count,
      outstanding: points.outstanding,
      issued: sum('issued'),
      redeemed: sum('redeemed'),
      expired: sum('expired'),
      codesGenerated: codes.total.generated,
      codesRedeemed: codes.total.redeemed,
      orders: orders.months.reduce((total, m) => total + m.orders, 0),
    });
  }
  return { at: now.toISOString(), from: months[0]!, clients };
}
