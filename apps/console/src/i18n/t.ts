import { en, type MessageKey } from './en.ts';

export type { MessageKey };
export type MessageParams = Record<string, string | number>;

/**
 * The console's one translation function (issue 17, section 5): every text on screen comes
 * through here from a message table. English is the only table today; another language is one
 * more table of the same keys. `{name}` in a message is replaced by params.name.
 */
export function t(key: MessageKey, params?: MessageParams): string {
  const message: string = en[key];
  if (!params) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

const numberFormat = new Intl.NumberFormat('en-GB');
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
// A calendar day (YYYY-MM-DD) is midnight UTC as a Date: shown in UTC, so no browser shifts it a day.
const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** Points with a sign, for amounts: +250, −40. */
export function formatSigned(n: number): string {
  return n > 0 ? `+${numberFormat.format(n)}` : n < 0 ? `−${numberFormat.format(-n)}` : '0';
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return t('common.never');
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** A calendar day (YYYY-MM-DD), the same day wherever the browser is. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}
