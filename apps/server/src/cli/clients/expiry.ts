import type { Command } from 'commander';
import { MAX_REMINDER_DAYS } from '@rewards/contract/console-clients';
import type { Db } from '../../db/database.ts';
import { ApiError } from '../../http/api-error.ts';
import {
  canonicalTimeZone,
  checkExpiryChange,
  describeExpiry,
  describeReminders,
  expirySettingsOf,
  EXPIRY_SYNTAX,
  mergeExpirySettings,
  NEW_CLIENT_EXPIRY_SETTINGS,
  parseExpiryPolicy,
  POLICY_CHANGE_NOTE,
  policyText,
  setExpirySettings,
  type ExpiryChange,
  type ExpiryOutcome,
  type ExpirySettings,
} from '../../modules/clients/expiry-settings.ts';
import type { Client } from '../../modules/clients/tables.ts';
import { CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorOrigin } from '../commands/audit.ts';

/** The expiry flags of `clients update` (issue 19, docs/decisions/062), as commander hands them over. */
export interface ExpiryOptions {
  expiry?: string;
  timeZone?: string;
  expiryReminderDays?: string;
  expiryLastChanceDays?: string;
}

export function expiryOptions(command: Command): Command {
  return command
    .option('--expiry <policy>', `when points expire: ${EXPIRY_SYNTAX} (see the examples below)`)
    .option('--time-zone <zone>', 'the IANA time zone whose end of day is when points expire, e.g. Europe/Paris (default UTC)')
    .option(
      '--expiry-reminder-days <days>',
      `days before an expiry when the reminder mail goes out, 1 to ${MAX_REMINDER_DAYS} (default 30)`,
    )
    .option(
      '--expiry-last-chance-days <days>',
      `days before an expiry when the last-chance mail goes out, 0 (the day itself) to ${MAX_REMINDER_DAYS - 1}, fewer than the reminder's (default 7)`,
    )
    .addHelpText(
      'after',
      `
Points that expire (--expiry):
  none                  points never expire (the default)
  rolling:12            each earning expires 12 months after the day it was earned
  calendar:year:1       each earning expires at the end of the year after the one it was earned in
  calendar:quarter:0    each earning expires at the end of the quarter it was earned in
  inactivity:18         the whole balance expires after 18 months without any earning or spending
Expiry is at the end of the day in --time-zone. A new policy dates only points earned from then on.
Examples:
  rewards clients create --client zeta --name Zeta --origin zeta.example --expiry calendar:year:1
  rewards clients update --client acme --expiry rolling:12 --time-zone Europe/Paris
  rewards clients update --client acme --expiry-reminder-days 30 --expiry-last-chance-days 7`,
    );
}

/** The flags as one change; a bad value is a CliError naming its flag before the database is touched. */
export function expiryChangeFrom(options: ExpiryOptions): ExpiryChange {
  const change: ExpiryChange = {};
  if (options.expiry !== undefined) change.policy = flag('--expiry', () => parseExpiryPolicy(options.expiry ?? ''));
  if (options.timeZone !== undefined) {
    const zone = canonicalTimeZone(options.timeZone);
    if (!zone) throw new CliError(`--time-zone: "${options.timeZone}" is not a time zone: give an IANA name such as Europe/Paris or UTC`);
    change.timeZone = zone;
  }
  if (options.expiryReminderDays !== undefined)
    change.reminderDays = wholeNumber('--expiry-reminder-days', options.expiryReminderDays, 1, MAX_REMINDER_DAYS);
  if (options.expiryLastChanceDays !== undefined)
    change.lastChanceDays = wholeNumber('--expiry-last-chance-days', options.expiryLastChanceDays, 0, MAX_REMINDER_DAYS - 1);
  return change;
}

function flag<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(`${name}: ${error.message}`);
    throw error;
  }
}

/**
 * Refuses, before `clients create` or `update` changes anything, what the change would be refused
 * for (a time zone, the days together); a new client's are checked against the defaults.
 */
export async function checkExpiryFlags(db: Db, mode: 'create' | 'update', clientId: string, change: ExpiryChange): Promise<void> {
  if (Object.keys(change).length === 0) return;
  if (mode === 'update') await requireClient(db, clientId);
  // Each flag was checked on its own; what is left to refuse is the days together.
  try {
    if (mode === 'update') await checkExpiryChange(db, clientId, change);
    else mergeExpirySettings(NEW_CLIENT_EXPIRY_SETTINGS, change);
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(`--expiry-reminder-days, --expiry-last-chance-days: ${error.message}`);
    throw error;
  }
}

/** Applies the change with its audit entry; undefined when no expiry flag was given. */
export async function applyExpiryFlags(
  db: Db,
  operator: string,
  clientId: string,
  change: ExpiryChange,
): Promise<ExpiryOutcome | undefined> {
  if (Object.keys(change).length === 0) return undefined;
  return setExpirySettings(db, { name: operator, kind: 'operator', origin: operatorOrigin }, clientId, change);
}

/** What `clients update` adds to its summary. */
export function formatExpiryOutcome(outcome: ExpiryOutcome): string[] {
  if (outcome.changed.length === 0) return [];
  const lines = [`Points expiry: ${describeExpiry(outcome.to)}; mails: ${describeReminders(outcome.to)}.`];
  if (outcome.changed.includes('expiryPolicy')) lines.push(POLICY_CHANGE_NOTE);
  return lines;
}

/** `clients show`'s expiry block: the policy in `--expiry`'s syntax and in words. */
export function expiryDescription(client: Client): ExpirySettings & { expiry: string; description: string; reminders: string } {
  const settings = expirySettingsOf(client);
  return {
    ...settings,
    expiry: policyText(settings.policy),
    description: describeExpiry(settings),
    reminders: describeReminders(settings),
  };
}
