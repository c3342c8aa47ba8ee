import { ExpiryPolicy } from '@rewards/contract';
import { parsePolicy } from '../expiry/policy.ts';
import { ExpirySettings, MAX_REMINDER_DAYS } from '@rewards/contract/console-clients';
import type { Db } from '../../db/database.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { errors } from '../../http/api-error.ts';
import type { Actor } from '../participants/operator-service.ts';
import type { Client } from './tables.ts';
import { auditSettingsChange } from './settings-audit.ts';
import { readClientColumns, updateClient } from './store.ts';

export type { ExpirySettings };

/**
 * A client's expiry settings (issue 19, docs/decisions/062): the policy, the time zone whose end
 * of day is when points expire, and the days ahead of an expiry when the reminder and the last
 * chance go out. Written by `rewards clients update` and the console's PUT alike, through
 * setExpirySettings; read by the expiry run, the schedule and the mails through the readers below.
 */

/** What may change; what is not given stays. */
export type ExpiryChange = Partial<ExpirySettings>;

/** The audit's and the commands' names of the four settings. */
const FIELDS = {
  policy: 'expiryPolicy',
  timeZone: 'timeZone',
  reminderDays: 'expiryReminderDays',
  lastChanceDays: 'expiryLastChanceDays',
} as const satisfies Record<keyof ExpirySettings, string>;

/** The syntax of `--expiry`, for help texts and refusals. */
export const EXPIRY_SYNTAX = 'none | rolling:<months> | calendar:<month|quarter|year>:<count> | inactivity:<months>';

/** What the command and the console say when a policy changes (lots keep their own dates). */
export const POLICY_CHANGE_NOTE =
  'The new policy dates only points earned from now on: points already earned keep the expiry date they were given.';

const NONE: ExpiryPolicy = { type: 'none' };

/**
 * The zone's canonical IANA name (europe/paris → Europe/Paris, US/Eastern → America/New_York), or
 * undefined when it is none. Offsets (+01:00) are refused: a fixed offset has no summer time, and
 * the setting is a place's rules.
 */
export function canonicalTimeZone(value: string): string | undefined {
  const zone = value.trim();
  if (zone.length === 0 || zone.length > 64 || !/^[A-Za-z]/.test(zone)) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * `--expiry`'s text as a policy: none, rolling:12, calendar:year:1, calendar:quarter:0,
 * inactivity:18. A bad text is a validation error naming the syntax.
 */
export function parseExpiryPolicy(text: string): ExpiryPolicy {
  const parts = text.trim().toLowerCase().split(':');
  const whole = (value: string | undefined) => (value !== undefined && /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN);
  const candidate =
    parts[0] === 'none' && parts.length === 1
      ? NONE
      : (parts[0] === 'rolling' || parts[0] === 'inactivity') && parts.length === 2
        ? { type: parts[0], months: whole(parts[1]) }
        : parts[0] === 'calendar' && parts.length === 3
          ? { type: 'calendar', period: parts[1], count: whole(parts[2]) }
          : undefined;
  if (!candidate) throw errors.validation(`"${text}" is not a policy: ${EXPIRY_SYNTAX}`);
  const parsed = ExpiryPolicy.safeParse(candidate);
  if (!parsed.success) throw errors.validation(`"${text}": ${policyBounds(candidate.type)}`);
  return parsed.data;
}

function policyBounds(type: string): string {
  return type === 'calendar'
    ? 'the period is month, quarter or year and the count a whole number from 0 (the end of the period earned in) to 10'
    : 'the months are a whole number from 1 to 120';
}

/** The policy in `--expiry`'s syntax (what `clients show --json` prints beside the words). */
export function policyText(policy: ExpiryPolicy): string {
  switch (policy.type) {
    case 'none':
      return 'none';
    case 'rolling':
    case 'inactivity':
      return `${policy.type}:${policy.months}`;
    case 'calendar':
      return `calendar:${policy.period}:${policy.count}`;
  }
}

const months = (n: number) => (n === 1 ? '1 month' : `${n} months`);
const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** The settings in words, as `clients show` prints them: "points expire 12 months after they are earned, at the end of the day, Europe/Paris". */
export function describeExpiry(settings: Pick<ExpirySettings, 'policy' | 'timeZone'>): string {
  const { policy, timeZone } = settings;
  switch (policy.type) {
    case 'none':
      return 'points never expire';
    case 'rolling':
      return `points expire ${months(policy.months)} after they are earned, at the end of the day, ${timeZone}`;
    case 'calendar': {
      const when =
        policy.count === 0
          ? `the ${policy.period} they are earned in`
          : policy.count === 1
            ? `the ${policy.period} after the one they are earned in`
            : `the ${ordinal(policy.count)} ${policy.period} after the one they are earned in`;
      return `points expire at the end of ${when}, ${timeZone} time`;
    }
    case 'inactivity':
      return `the whole balance expires after ${months(policy.months)} without any earning or spending, at the end of the day, ${timeZone}`;
  }
}

/** The reminder days in words. */
export function describeReminders(settings: Pick<ExpirySettings, 'reminderDays' | 'lastChanceDays'>): string {
  const days = (n: number) => (n === 0 ? 'on the day' : n === 1 ? '1 day before' : `${n} days before`);
  return `a reminder ${days(settings.reminderDays)}, a last chance ${days(settings.lastChanceDays)}`;
}

/** The stored JSON as a policy; a row that is not one counts as none. One reading, the run's (expiry/policy.ts). */
export { parsePolicy as storedPolicy } from '../expiry/policy.ts';

type ExpiryColumns = Pick<Client, 'expiry_policy' | 'time_zone' | 'expiry_reminder_days' | 'expiry_last_chance_days'>;
const COLUMNS = ['expiry_policy', 'time_zone', 'expiry_reminder_days', 'expiry_last_chance_days'] as const;

/** The settings of a client row. */
export function expirySettingsOf(row: ExpiryColumns): ExpirySettings {
  return {
    policy: parsePolicy(row.expiry_policy),
    timeZone: row.time_zone,
    reminderDays: row.expiry_reminder_days,
    lastChanceDays: row.expiry_last_chance_days,
  };
}

/** A client's settings as they are now (a transaction's view inside one); 404 for an unknown client. */
export async function readExpirySettings(db: Db, clientId: string): Promise<ExpirySettings> {
  const row = await readClientColumns(db, clientId, COLUMNS);
  if (!row) throw errors.notFound();
  return expirySettingsOf(row);
}

/**
 * A client's settings for the request path and the mails: kept CLIENT_CACHE_SECONDS like the rest
 * of the configuration (db/read-cache.ts), so a change by the command or the console shows on every
 * process within that time without any message between them. Undefined for an unknown client.
 */
export function clientExpirySettings(db: Db, clientId: string): Promise<ExpirySettings | undefined> {
  return cachedRead(db, `expirySettings:${clientId}`, async () => {
    const row = await readClientColumns(db, clientId, COLUMNS);
    return row ? expirySettingsOf(row) : undefined;
  });
}

/**
 * The settings after `change`, every value checked on its own and together (the reminder before
 * the last chance); a validation error saying what is wrong otherwise. Pure: the command runs it
 * before it changes anything, the service inside its transaction.
 */
export function mergeExpirySettings(current: ExpirySettings, change: ExpiryChange): ExpirySettings {
  let policy = current.policy;
  if (change.policy !== undefined) {
    const parsed = ExpiryPolicy.safeParse(change.policy);
    if (!parsed.success) throw errors.validation(`the expiry policy is not one of ${EXPIRY_SYNTAX}`);
    policy = parsed.data;
  }
  let timeZone = current.timeZone;
  if (change.timeZone !== undefined) {
    const zone = canonicalTimeZone(change.timeZone);
    if (!zone) throw errors.validation(`"${change.timeZone}" is not a time zone: give an IANA name such as Europe/Paris or UTC`);
    timeZone = zone;
  }
  const days = (value: number | undefined, kept: number, min: number, what: string) => {
    if (value === undefined) return kept;
    if (!Number.isSafeInteger(value) || value < min || value > MAX_REMINDER_DAYS)
      throw errors.validation(`the ${what} days must be a whole number from ${min} to ${MAX_REMINDER_DAYS}`);
    return value;
  };
  const reminderDays = days(change.reminderDays, current.reminderDays, 1, 'reminder');
  const lastChanceDays = days(change.lastChanceDays, current.lastChanceDays, 0, 'last-chance');
  if (reminderDays <= lastChanceDays)
    throw errors.validation(
      `the reminder must go out more days before an expiry than the last chance (reminder ${reminderDays}, last chance ${lastChanceDays})`,
    );
  return { policy, timeZone, reminderDays, lastChanceDays };
}

/** The names of the settings that differ. */
function differences(from: ExpirySettings, to: ExpirySettings): Array<keyof ExpirySettings> {
  return (Object.keys(FIELDS) as Array<keyof ExpirySettings>).filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key]));
}

export interface ExpiryOutcome {
  from: ExpirySettings;
  to: ExpirySettings;
  /** Names of the settings that changed (expiryPolicy, timeZone, expiryReminderDays, expiryLastChanceDays). */
  changed: string[];
  /** Null when nothing changed (nothing written). */
  auditId: string | null;
}

/** Refuses a change that setExpirySettings would refuse, changing nothing (the command's check before its other changes). */
/** A new client's settings: the columns' defaults (migration 025). */
export const NEW_CLIENT_EXPIRY_SETTINGS: ExpirySettings = {
  policy: { type: 'none' },
  timeZone: 'UTC',
  reminderDays: 30,
  lastChanceDays: 7,
};

export async function checkExpiryChange(db: Db, clientId: string, change: ExpiryChange): Promise<ExpirySettings> {
  return mergeExpirySettings(await readExpirySettings(db, clientId), change);
}

/**
 * Sets what `change` names, with one audit entry (each changed setting from and to, the reason)
 * in the same transaction. An unchanged set writes nothing (auditId null). A new policy does not
 * touch the lots: each keeps the date it was given, so it dates only points earned from now on.
 */
export async function setExpirySettings(
  db: Db,
  actor: Actor,
  clientId: string,
  change: ExpiryChange,
  reason?: string,
): Promise<ExpiryOutcome> {
  return db.transaction().execute(async (trx) => {
    const from = await readExpirySettings(trx, clientId);
    const to = mergeExpirySettings(from, change);
    const changed = differences(from, to);
    if (changed.length === 0) return { from, to, changed: [], auditId: null };
    await updateClient(trx, clientId, {
      expiry_policy: JSON.stringify(to.policy),
      time_zone: to.timeZone,
      expiry_reminder_days: to.reminderDays,
      expiry_last_chance_days: to.lastChanceDays,
    });
    const details: Record<string, unknown> = {};
    for (const key of changed) details[FIELDS[key]] = { from: from[key], to: to[key] };
    const auditId = await auditSettingsChange(trx, actor, clientId, details, reason);
    return { from, to, changed: changed.map((key) => FIELDS[key]), auditId };
  });
}
