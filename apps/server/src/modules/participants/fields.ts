import { randomBytes } from 'node:crypto';
import { EmailAddress, isIsoDate, OLDEST_BIRTH_DATE } from '@rewards/contract';
import type { NewParticipant } from './tables.ts';
import { hashPassword } from '../auth/password.ts';
import { withSearchKeys } from './search-keys.ts';

/** What an operator may set on a participant, by `participants create` or a line of an import. */
export interface ParticipantFields {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  /** One of the client's locale codes, spelled as the client spells it. */
  locale: string;
  accountNumber: string;
  merchandise: boolean;
  experiences: boolean;
  ots: boolean;
  programs: string[];
  /** Undefined: pending for a new participant, unchanged for a known one. */
  status: ParticipantStatus | undefined;
  /** ISO YYYY-MM-DD; null: none on file; undefined: not given (a known participant's stays). */
  dateOfBirth: string | null | undefined;
}

export const PARTICIPANT_STATUSES = ['pending', 'active', 'inactive'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/** The header of `participants import`, every column required, in any order. */
export const IMPORT_COLUMNS = [
  'username',
  'first_name',
  'last_name',
  'email',
  'locale',
  'account_number',
  'merchandise',
  'experiences',
  'ots',
  'programs',
  'status',
] as const;
/** Columns a file may leave out: absent, a known participant's value stays as it is. */
export const OPTIONAL_IMPORT_COLUMNS = ['date_of_birth'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export type OptionalImportColumn = (typeof OPTIONAL_IMPORT_COLUMNS)[number];
/** One participant's raw values: every required column, and the optional ones the file has. */
export type RawParticipant = Record<ImportColumn, string> & Partial<Record<OptionalImportColumn, string>>;

export type FieldsResult = { ok: true; fields: ParticipantFields } | { ok: false; reason: string };

/** The client's facts a participant is checked against. */
export interface ClientRules {
  /** The client's locale codes. */
  locales: readonly string[];
  defaultLocale: string;
}

// As activation's chosen username: 3-100 characters, no spaces or control characters.
const USERNAME = /^[^\s\p{C}]{3,100}$/u;
const NO_CONTROL = /^[^\p{C}]*$/u;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

function text(name: string, value: string, max: number): string | { reason: string } {
  if (value.length === 0) return { reason: `${name} is empty` };
  if (value.length > max) return { reason: `${name} is longer than ${max} characters` };
  if (!NO_CONTROL.test(value)) return { reason: `${name} has control characters` };
  return value;
}

export function parseFlag(name: string, value: string): boolean | { reason: string } {
  const lower = value.trim().toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  return { reason: `${name} must be true, false, 1, 0, yes or no (found "${value}")` };
}

/** `|`-separated program names, trimmed, empty ones and repeats dropped. */
export function parsePrograms(value: string): string[] | { reason: string } {
  const names = [
    ...new Set(
      value
        .split('|')
        .map((name) => name.trim())
        .filter((name) => name.length > 0),
    ),
  ];
  for (const name of names) {
    const checked = text('a program name', name, 200);
    if (typeof checked !== 'string') return checked;
  }
  return names;
}

/**
 * The raw values of one participant (strings as a CSV line or flags give them) checked and
 * normalised: trimmed, the locale spelled as the client does (empty: the client's default),
 * flags as booleans. The first problem found is the reason.
 */
export function checkParticipant(raw: RawParticipant, client: ClientRules, today = new Date().toISOString().slice(0, 10)): FieldsResult {
  const username = raw.username.trim();
  if (!USERNAME.test(username)) return { ok: false, reason: `username "${username}" must be 3 to 100 characters without spaces` };
  const firstName = text('first_name', raw.first_name.trim(), 100);
  if (typeof firstName !== 'string') return { ok: false, ...firstName };
  const lastName = text('last_name', raw.last_name.trim(), 100);
  if (typeof lastName !== 'string') return { ok: false, ...lastName };
  const email = EmailAddress.safeParse(raw.email);
  if (!email.success) return { ok: false, reason: `email "${raw.email.trim()}" is not an email address` };
  const askedLocale = raw.locale.trim();
  const locale =
    askedLocale === '' ? client.defaultLocale : client.locales.find((code) => code.toLowerCase() === askedLocale.toLowerCase());
  if (!locale) return { ok: false, reason: `locale "${askedLocale}" is not one of the client's (${client.locales.join(', ')})` };
  const accountNumber = text('account_number', raw.account_number.trim(), 50);
  if (typeof accountNumber !== 'string') return { ok: false, ...accountNumber };
  const merchandise = parseFlag('merchandise', raw.merchandise);
  if (typeof merchandise !== 'boolean') return { ok: false, ...merchandise };
  const experiences = parseFlag('experiences', raw.experiences);
  if (typeof experiences !== 'boolean') return { ok: false, ...experiences };
  const ots = parseFlag('ots', raw.ots);
  if (typeof ots !== 'boolean') return { ok: false, ...ots };
  const programs = parsePrograms(raw.programs);
  if (!Array.isArray(programs)) return { ok: false, ...programs };
  const askedStatus = raw.status.trim().toLowerCase();
  const status = askedStatus === '' ? undefined : PARTICIPANT_STATUSES.find((s) => s === askedStatus);
  if (askedStatus !== '' && !status) return { ok: false, reason: `status "${raw.status.trim()}" must be pending, active or inactive` };
  const dateOfBirth = raw.date_of_birth === undefined ? undefined : parseDateOfBirth(raw.date_of_birth, today);
  if (typeof dateOfBirth === 'object' && dateOfBirth !== null) return { ok: false, ...dateOfBirth };
  return {
    ok: true,
    fields: {
      username,
      firstName,
      lastName,
      email: email.data,
      locale,
      accountNumber,
      merchandise,
      experiences,
      ots,
      programs,
      status,
      dateOfBirth,
    },
  };
}

/**
 * A date of birth as an operator writes it: ISO YYYY-MM-DD naming a real day between
 * OLDEST_BIRTH_DATE and today (what the activation form accepts), or empty for none.
 */
export function parseDateOfBirth(value: string, today: string): string | null | { reason: string } {
  const date = value.trim();
  if (date === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return { reason: `date_of_birth "${date}" must be written YYYY-MM-DD, e.g. 1987-03-14` };
  if (!isIsoDate(date)) return { reason: `date_of_birth "${date}" is not a day of the calendar` };
  if (date < OLDEST_BIRTH_DATE) return { reason: `date_of_birth "${date}" is before ${OLDEST_BIRTH_DATE}` };
  if (date > today) return { reason: `date_of_birth "${date}" is in the future` };
  return date;
}

/**
 * The status a participant ends with. An operator's file cannot undo an activation: "pending"
 * means "has not activated yet", a fact of the account, so it leaves an activated (or
 * deactivated) participant as they are. Every other status is the operator's to set.
 */
export function resultingStatus(current: string | undefined, asked: ParticipantStatus | undefined): string {
  if (current === undefined) return asked ?? 'pending';
  if (asked === undefined) return current;
  if (asked === 'pending' && current !== 'pending') return current;
  return asked;
}

/**
 * A hash nobody can sign in with: argon2id of 256 random bits that are thrown away. New
 * participants get it until they activate (or, when enrolled active, reset their password):
 * the column stays a real hash, so sign-in fails as for any wrong password, in the same time.
 */
export async function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

/**
 * The participants row of checked fields, search keys included: one shape for `participants
 * create`, `participants update` and the import.
 */
export function participantRow(
  fields: ParticipantFields,
  row: {
    id: string;
    clientId: string;
    usernameKey: string;
    passwordHash: string;
    status: string;
    createdAt: string;
    /** When the row changes (decision 085); default createdAt, the time of a new row. */
    updatedAt?: string;
  },
): NewParticipant {
  return withSearchKeys({
    id: row.id,
    client_id: row.clientId,
    username: fields.username,
    username_key: row.usernameKey,
    email: fields.email,
    first_name: fields.firstName,
    last_name: fields.lastName,
    password_hash: row.passwordHash,
    status: row.status,
    locale: fields.locale,
    account_number: fields.accountNumber,
    offers_merchandise: fields.merchandise ? 1 : 0,
    offers_experiences: fields.experiences ? 1 : 0,
    ots_enabled: fields.ots ? 1 : 0,
    privacy_ack_version: 0,
    date_of_birth: fields.dateOfBirth ?? null,
    balance: null,
    created_at: row.createdAt,
    updated_at: row.updatedAt ?? row.createdAt,
  });
}
