import type { ExpiryPolicy } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { lastActivityOf } from '../ledger/service.ts';
import { participantsWithPoints } from '../participants/service.ts';
import { addMonths, dayIn, dayOfTimestamp, inactiveAfter, parsePolicy } from './policy.ts';
import { expiriesFromLots, SCHEDULE_MONTHS } from './schedule.ts';
import { openLotsByDay } from './schedule-store.ts';
import { findClient } from '../clients/service.ts';

/**
 * `rewards points forecast` (issue 19, §4): what of a client's outstanding points expires in each
 * of the coming twelve months, counted per participant exactly as their own schedule counts it
 * (expiriesFromLots), so the operator's figure is the sum of what the participants are shown.
 */

export interface ExpiryForecast {
  clientId: string;
  policy: ExpiryPolicy['type'];
  timeZone: string;
  /** Today in the client's time zone: the first day counted. */
  from: string;
  /** The last day counted, twelve months on. */
  until: string;
  /** Every open lot's remainder: the program's liability today (the participants' balances). */
  outstanding: number;
  /** Each month from this one, YYYY-MM, with the points expected to expire in it (0 included). */
  months: Array<{ month: string; points: number }>;
  expiring: number;
  /** What is left of today's outstanding after the twelve months, if nobody spends. */
  outstandingAfter: number;
}

export class ForecastInputError extends Error {}

const BATCH = 500;

export async function forecastExpiry(db: Db, clientId: string, options: { asOf?: string; now?: Date } = {}): Promise<ExpiryForecast> {
  const client = await findClient(db, clientId);
  if (!client) throw new ForecastInputError(`Unknown client "${clientId}"`);
  const policy = parsePolicy(client.expiry_policy);
  const from = options.asOf ?? dayIn(options.now ?? new Date(), client.time_zone);
  const until = addMonths(from, SCHEDULE_MONTHS);
  const months = new Map<string, number>();
  for (let month = from.slice(0, 7); month <= until.slice(0, 7); month = addMonths(`${month}-01`, 1).slice(0, 7)) months.set(month, 0);

  let outstanding = 0;
  let after = '';
  for (;;) {
    const page = await participantsWithPoints(db, client.id, after, BATCH);
    if (page.length === 0) break;
    after = page[page.length - 1]!;
    const lots = await openLotsByDay(db, client.id, page);
    const last = policy.type === 'inactivity' ? await lastActivityOf(db, client.id, page) : new Map<string, string>();
    for (const [participantId, open] of lots) {
      for (const lot of open) outstanding += lot.points;
      const lastAt = last.get(participantId);
      const inactivityDay =
        policy.type === 'inactivity' && lastAt !== undefined ? inactiveAfter(policy, dayOfTimestamp(lastAt, client.time_zone)) : undefined;
      for (const expiry of expiriesFromLots(open, inactivityDay, from, until)) {
        const month = expiry.date.slice(0, 7);
        months.set(month, (months.get(month) ?? 0) + expiry.points);
      }
    }
  }
  const rows = [...months].map(([month, points]) => ({ month, points }));
  const expiring = rows.reduce((sum, row) => sum + row.points, 0);
  return {
    clientId: client.id,
    policy: policy.type,
    timeZone: client.time_zone,
    from,
    until,
    outstanding,
    months: rows,
    expiring,
    outstandingAfter: outstanding - expiring,
  };
}
