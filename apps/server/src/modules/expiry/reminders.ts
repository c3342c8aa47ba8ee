import type { Db } from '../../db/database.ts';
import { absoluteHttpUrl, insertOutboxRow } from '../mail/outbox.ts';
import { findParticipant } from '../participants/service.ts';
import { plainAddress } from '../content/contact-mail.ts';
import { EXPIRY_MAIL_TEMPLATES, type ExpiryMailValues } from './reminder-mail.ts';
import { listClientColumns } from '../clients/service.ts';
import { pageParticipantsLastActiveBetween } from '../ledger/service.ts';
import { listOpenLotsWithNotices, pageParticipantsWithDatedLots, recordNotices, type NoticeKind } from './reminders-store.ts';
import { addDays, addMonths, dayIn, inactivityClock, policyOf } from './schedule.ts';
import type { ExpiryPolicy } from '@rewards/contract';

/**
 * The mails that tell participants their points expire (issue 19, docs/decisions/061): for each
 * client, a reminder for the lots due within its expiry_reminder_days and a last chance for those
 * due within its expiry_last_chance_days. One mail per participant and kind per run, listing
 * every day with its amount; each lot is told once per kind (expiry_notices, written in the
 * transaction that queues the mail, so a mail and its record commit together); only what remains
 * of a lot counts (spent points are never announced); only active participants with an address
 * are written to. The daily expiry run calls it; it is safe to run again at any time.
 */

export interface ReminderOptions {
  /**
   * The run's clock (default now): the moment "today" is taken at in each client's zone, or a
   * calendar day YYYY-MM-DD used as every client's today (then its noon UTC is the run's moment).
   * Notices are stamped with it, so a run as of another day agrees with the activity it compares.
   */
  asOf?: Date | string;
  /** Only this client (default: every client). */
  clientId?: string;
}

export interface ReminderSummary {
  /** Mails queued, of each kind. */
  reminder: number;
  lastChance: number;
  /** Lots those mails told about. */
  lots: number;
}

/** Participants looked at per query: memory stays flat however many are due. */
const PAGE = 500;

/** A lot to tell about: its day (its own, or the inactivity day) and what remains of it. */
interface DueLot {
  lotId: string;
  date: string;
  points: number;
  /** Set when the day comes from the inactivity clock: a notice sent before the last activity no longer counts. */
  staleBefore?: string;
}

/** What the reminders need of a client, read as it stands. */
const REMINDER_COLUMNS = ['id', 'time_zone', 'expiry_policy', 'expiry_reminder_days', 'expiry_last_chance_days', 'portal_url'] as const;

export async function sendExpiryReminders(db: Db, options: ReminderOptions = {}): Promise<ReminderSummary> {
  const summary: ReminderSummary = { reminder: 0, lastChance: 0, lots: 0 };
  const now = typeof options.asOf === 'string' ? new Date(`${options.asOf}T12:00:00.000Z`) : (options.asOf ?? new Date());
  if (Number.isNaN(now.getTime())) throw new Error('sendExpiryReminders: asOf is not a day or a moment');
  for (const client of await listClientColumns(db, REMINDER_COLUMNS, options.clientId)) {
    const today = typeof options.asOf === 'string' ? options.asOf : dayIn(now, client.time_zone);
    const policy = policyOf(client);
    const lastChanceUntil = addDays(today, Math.max(0, client.expiry_last_chance_days));
    const reminderUntil = addDays(today, Math.max(0, client.expiry_reminder_days));
    const horizon = reminderUntil > lastChanceUntil ? reminderUntil : lastChanceUntil;
    // Every mail links to the portal: a client without a usable address gets none.
    const link = absoluteHttpUrl(`${client.portal_url.replace(/\/+$/, '')}/home`);
    if (!link) continue;
    const context: ClientRun = { db, client, policy, today, lastChanceUntil, horizon, link, summary, sentAt: now.toISOString() };

    for (let after = ''; ;) {
      const ids = await pageParticipantsWithDatedLots(db, client.id, today, horizon, after, PAGE);
      for (const id of ids) await remindParticipant(context, id);
      if (ids.length < PAGE) break;
      after = ids[ids.length - 1] ?? '';
    }
    if (policy.type === 'inactivity') {
      // Whose last activity puts their inactivity day within the horizon; a day's margin each side
      // for the zone (an instant's day depends on it), then each is checked exactly.
      const from = `${addDays(addMonths(today, -policy.months), -2)}T00:00:00.000Z`;
      const until = `${addDays(addMonths(horizon, -policy.months), 2)}T23:59:59.999Z`;
      for (let after = ''; ;) {
        const ids = await pageParticipantsLastActiveBetween(db, client.id, from, until, after, PAGE);
        for (const id of ids) await remindParticipant(context, id);
        if (ids.length < PAGE) break;
        after = ids[ids.length - 1] ?? '';
      }
    }
  }
  return summary;
}

interface ClientRun {
  db: Db;
  client: { id: string; time_zone: string };
  policy: ExpiryPolicy;
  today: string;
  lastChanceUntil: string;
  horizon: string;
  link: URL;
  summary: ReminderSummary;
  /** The run's moment, as notices record it. */
  sentAt: string;
}

/** The notices due to one participant: at most one mail per kind, each in its own transaction with its records. */
async function remindParticipant(run: ClientRun, participantId: string): Promise<void> {
  const { db, client } = run;
  const participant = await findParticipant(db, client.id, participantId);
  const to = plainAddress(participant?.email);
  if (!participant || participant.status !== 'active' || !to) return;

  const lots = await listOpenLotsWithNotices(db, client.id, participantId);
  const inactivity =
    run.policy.type === 'inactivity'
      ? await inactivityClock(db, { clientId: client.id, participantId, timeZone: client.time_zone }, run.policy.months)
      : undefined;

  const due: Record<NoticeKind, DueLot[]> = { reminder: [], lastChance: [] };
  for (const lot of lots) {
    const own = lot.expires_on;
    // Under inactivity the whole balance goes on its day: a lot dated later goes then too.
    const byInactivity = inactivity !== undefined && (own === null || own > inactivity.day);
    const date = byInactivity ? inactivity?.day : own;
    if (date === undefined || date === null || date < run.today || date > run.horizon) continue;
    const kind: NoticeKind = date <= run.lastChanceUntil ? 'lastChance' : 'reminder';
    const sentAt = kind === 'reminder' ? lot.reminder_sent_at : lot.last_chance_sent_at;
    const staleBefore = byInactivity ? inactivity?.lastActivity : undefined;
    const alreadyTold = sentAt !== null && (staleBefore === undefined || sentAt >= staleBefore);
    if (alreadyTold) continue;
    due[kind].push({ lotId: lot.id, date, points: lot.remaining, ...(staleBefore ? { staleBefore } : {}) });
  }

  for (const kind of ['lastChance', 'reminder'] as const) {
    const lotsOfKind = due[kind];
    if (lotsOfKind.length === 0) continue;
    const queued = await queueNotice(run, { id: participantId, locale: participant.locale, to }, kind, lotsOfKind);
    if (queued) {
      run.summary[kind] += 1;
      run.summary.lots += lotsOfKind.length;
    }
  }
}

/** Another run recorded one of these notices first: this mail is not sent. */
class ToldAlready extends Error {}

/** Queues one mail and records its notices together; false when another run got there first. */
async function queueNotice(
  run: ClientRun,
  participant: { id: string; locale: string; to: string },
  kind: NoticeKind,
  lots: DueLot[],
): Promise<boolean> {
  const byDay = new Map<string, number>();
  for (const lot of lots) byDay.set(lot.date, (byDay.get(lot.date) ?? 0) + lot.points);
  const values: ExpiryMailValues = {
    expiries: [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, points]) => ({ date, points })),
    link: run.link.href,
  };
  try {
    await run.db.transaction().execute(async (trx) => {
      const recorded = await recordNotices(
        trx,
        lots.map((lot) => ({ lotId: lot.lotId, kind, staleBefore: lot.staleBefore })),
        run.sentAt,
      );
      if (recorded !== lots.length) throw new ToldAlready();
      await insertOutboxRow(trx, {
        clientId: run.client.id,
        participantId: participant.id,
        to: participant.to,
        locale: participant.locale,
        template: EXPIRY_MAIL_TEMPLATES[kind],
        content: { values, origin: run.link.origin },
        host: run.link.hostname,
      });
    });
    return true;
  } catch (error) {
    if (error instanceof ToldAlready) return false;
    throw error;
  }
}
