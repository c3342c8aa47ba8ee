import { z } from 'zod';

/**
 * Points that expire (issue 19, docs/decisions/057). A client's policy, set by its operator:
 * - none: points never expire (the default; nothing changes for a client that sets nothing);
 * - rolling: each earning expires `months` months after the day it was earned;
 * - calendar: each earning expires at the end of the `count`th month, quarter or year after the
 *   one it was earned in (count 0: the end of that same period);
 * - inactivity: the whole balance expires after `months` months without any earning or spending.
 * Expiry happens at the end of the day in the client's time zone. A changed policy applies to
 * earnings from then on; points already earned keep their date.
 */
export const ExpiryPolicy = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('rolling'), months: z.number().int().min(1).max(120) }),
  z.object({ type: z.literal('calendar'), period: z.enum(['month', 'quarter', 'year']), count: z.number().int().min(0).max(10) }),
  z.object({ type: z.literal('inactivity'), months: z.number().int().min(1).max(120) }),
]);
export type ExpiryPolicy = z.infer<typeof ExpiryPolicy>;

/** A calendar day, YYYY-MM-DD, in the client's time zone: points expire at its end. */
export const CalendarDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * GET user/points/expiring: what of the signed-in participant's balance expires when, over the
 * coming twelve months, soonest first; one row per day, never a day with nothing. Its own call so
 * that the spec's statement keeps its shape. Under an inactivity policy the row is the whole
 * balance on the day it would expire if nothing happens before.
 */
export const ExpiryScheduleReply = z.object({
  expiries: z.array(z.object({ date: CalendarDay, points: z.number().int().positive() })),
});
export type ExpiryScheduleReply = z.infer<typeof ExpiryScheduleReply>;
