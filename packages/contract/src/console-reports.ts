import { z } from 'zod';

/**
 * The console's reports (issue 20, section 5, docs/decisions/067), under /api/console/v1: per
 * client, participants by status and active ones, points per month with the liability, code
 * batches' redemption rates and catalog orders; and every client the caller sees side by side.
 * Every role of a client reads its reports; another client's only an owner. Months are UTC
 * (YYYY-MM). The console draws each as a chart with its table and makes each table's CSV from
 * the same reply.
 */
const seg = encodeURIComponent;
const base = (clientId: string) => `/clients/${seg(clientId)}/reports`;

export const consoleReportPaths = {
  /** GET: ParticipantsReport. */
  participants: (clientId: string) => `${base(clientId)}/participants`,
  /** GET ?months=: PointsReport. */
  points: (clientId: string) => `${base(clientId)}/points`,
  /** GET: CodesReport. */
  codes: (clientId: string) => `${base(clientId)}/codes`,
  /** GET ?months=: OrdersReport. */
  orders: (clientId: string) => `${base(clientId)}/orders`,
  /** GET ?months=: ClientsComparison over every client the caller sees (an owner: all). */
  comparison: '/reports/clients',
} as const;

/** Days without a sign-in after which a participant no longer counts as active. */
export const ACTIVE_DAYS = 30;
/** The most months a report covers; the default is a year. */
export const MAX_REPORT_MONTHS = 120;
export const DEFAULT_REPORT_MONTHS = 12;

export const ReportMonthsQuery = z.object({
  /** The last N months, the current one included. */
  months: z.coerce.number().int().min(1).max(MAX_REPORT_MONTHS).default(DEFAULT_REPORT_MONTHS),
});
export type ReportMonthsQuery = z.infer<typeof ReportMonthsQuery>;

const Count = z.number().int().min(0);
const Month = z.string().regex(/^\d{4}-\d{2}$/);

export const ParticipantsReport = z.object({
  clientId: z.string(),
  /** When it was read (ISO). */
  at: z.string(),
  total: Count,
  /** Every status with at least one participant, by count (most first). */
  byStatus: z.array(z.object({ status: z.string(), count: Count })),
  /** Signed in (password, activation or single sign-on; not launch-as) since `since`. */
  active: z.object({ days: z.number().int(), since: z.string(), count: Count }),
});
export type ParticipantsReport = z.infer<typeof ParticipantsReport>;

export const PointsMonth = z.object({
  month: Month,
  /** Every credit: awards, codes, imports, positive adjustments. */
  issued: z.number().int(),
  /** Catalog orders' debits. */
  redeemed: z.number().int(),
  /** The expiry run's debits. */
  expired: z.number().int(),
  /** Other debits (negative adjustments and imports). */
  adjusted: z.number().int(),
  /** The program's liability at the month's end: every point issued by then and not yet gone. */
  outstanding: z.number().int(),
});
export type PointsMonth = z.infer<typeof PointsMonth>;

export const PointsReport = z.object({
  clientId: z.string(),
  at: z.string(),
  /** Oldest first, the current month last. */
  months: z.array(PointsMonth),
  /** The liability now (the sum of every balance). */
  outstanding: z.number().int(),
});
export type PointsReport = z.infer<typeof PointsReport>;

export const CodeBatchRow = z.object({
  /** The batch's name; null: codes made without one. */
  batch: z.string().nullable(),
  generated: Count,
  redeemed: Count,
  /** Never redeemed, past their expiry. */
  expired: Count,
  voided: Count,
  /** Still redeemable. */
  open: Count,
  /** Redeemed out of generated, 0–1. */
  redemptionRate: z.number().min(0).max(1),
  pointsRedeemed: Count,
});
export type CodeBatchRow = z.infer<typeof CodeBatchRow>;

export const CodesReport = z.object({
  clientId: z.string(),
  at: z.string(),
  /** By batch name. */
  batches: z.array(CodeBatchRow),
  total: CodeBatchRow.omit({ batch: true }),
});
export type CodesReport = z.infer<typeof CodesReport>;

export const OrdersReport = z.object({
  clientId: z.string(),
  at: z.string(),
  /** Oldest first, the current month last. */
  months: z.array(z.object({ month: Month, orders: Count, points: Count })),
  /** Over the same months, by partner, most orders first. */
  partners: z.array(z.object({ partnerId: z.string(), name: z.string(), orders: Count, points: Count })),
});
export type OrdersReport = z.infer<typeof OrdersReport>;

export const ClientSummary = z.object({
  clientId: z.string(),
  name: z.string(),
  participants: Count,
  active: Count,
  /** The liability now. */
  outstanding: z.number().int(),
  /** Over the report's months. */
  issued: z.number().int(),
  redeemed: z.number().int(),
  expired: z.number().int(),
  codesGenerated: Count,
  codesRedeemed: Count,
  orders: Count,
});
export type ClientSummary = z.infer<typeof ClientSummary>;

export const ClientsComparison = z.object({
  at: z.string(),
  /** The first month of the period (YYYY-MM), the current one its last. */
  from: Month,
  clients: z.array(ClientSummary),
});
export type ClientsComparison = z.infer<typeof ClientsComparison>;
