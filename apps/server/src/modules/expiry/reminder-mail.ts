import { PluralForms } from '@rewards/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { listMediaLabels } from '../clients/service.ts';
import type { Client } from '../clients/tables.ts';
import { absoluteHttpUrl, mailLook } from '../mail/outbox.ts';
import { escapeHtml, fill, page, type MailBranding, type RenderedMail } from '../mail/render.ts';
import { findParticipant } from '../participants/service.ts';

/**
 * The mails that tell a participant their points expire (issue 19, docs/decisions/061): a
 * reminder N days ahead and a last chance, each listing every date with its amount (never only
 * the soonest date). Queued by reminders.ts with the dates and amounts; rendered by the delivery
 * worker in the participant's language and the client's branding (decision 042), through
 * mail/compose.ts like the contact mail.
 */

/** What the outbox lists as the kind of these mails. */
export const EXPIRY_MAIL_TEMPLATES = { reminder: 'expiryReminder', lastChance: 'expiryLastChance' } as const;
export type ExpiryMailTemplate = (typeof EXPIRY_MAIL_TEMPLATES)[keyof typeof EXPIRY_MAIL_TEMPLATES];

export function isExpiryMailTemplate(template: string): template is ExpiryMailTemplate {
  return template === EXPIRY_MAIL_TEMPLATES.reminder || template === EXPIRY_MAIL_TEMPLATES.lastChance;
}

/** What a queued row carries: the days and amounts, soonest first, and the portal's address. */
export const ExpiryMailValues = z.object({
  expiries: z.array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), points: z.number().int().positive() })).min(1),
  link: z.string(),
});
export type ExpiryMailValues = z.infer<typeof ExpiryMailValues>;

const TEXT_KEYS = {
  expiryReminder: { subject: 'mail.expiryReminder.subject', intro: 'mail.expiryReminder.intro' },
  expiryLastChance: { subject: 'mail.expiryLastChance.subject', intro: 'mail.expiryLastChance.intro' },
} as const;

/** The media label's word for an amount, by the locale's plural rules; else its `other` form. */
export type LabelFor = (count?: number) => string;

/** Spec section 9's choice, as the web app makes it: the only label, else the mail's locale's, the client's default's, en-US's. */
export function chooseLabelForms(
  labels: ReadonlyArray<{ locale: string; forms: string }>,
  locale: string,
  clientLocale: string,
): PluralForms | undefined {
  const pick =
    labels.length === 1 ? labels[0] : [locale, clientLocale, 'en-US'].map((code) => labels.find((l) => l.locale === code)).find(Boolean);
  if (!pick) return undefined;
  try {
    const parsed = PluralForms.safeParse(JSON.parse(pick.forms));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `fallback`: the word when the client names its points in no label (the bundle's plain "points"). */
export function labelFor(forms: PluralForms | undefined, locale: string, fallback = ''): LabelFor {
  let rules: Intl.PluralRules;
  try {
    rules = new Intl.PluralRules(locale);
  } catch {
    rules = new Intl.PluralRules('en-US');
  }
  return (count) => {
    if (!forms) return fallback;
    if (count === undefined) return forms.other;
    return forms[rules.select(count)] ?? forms.other;
  };
}

/** Formats in the mail's locale; a calendar day is formatted in UTC from its own midnight, so it never shifts a day. */
function formatters(locale: string) {
  const make = <T>(build: (tag: string) => T): T => {
    try {
      return build(locale);
    } catch {
      return build('en-US');
    }
  };
  const numbers = make((tag) => new Intl.NumberFormat(tag, { maximumFractionDigits: 0 }));
  const days = make((tag) => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }));
  return { number: (n: number) => numbers.format(n), day: (day: string) => days.format(new Date(`${day}T00:00:00Z`)) };
}

/** Pure: the subject, text and HTML of a reminder or last chance, in the given texts. */
export function renderExpiryMail(
  template: ExpiryMailTemplate,
  texts: Readonly<Record<string, string>>,
  values: ExpiryMailValues & { name?: string | undefined },
  label: LabelFor,
  branding: MailBranding,
): RenderedMail {
  const format = formatters(branding.locale);
  const total = values.expiries.reduce((sum, e) => sum + e.points, 0);
  const base = { clientName: branding.clientName, mediaLabel: label(), ...(values.name ? { name: values.name } : {}) };
  const t = (key: string, more: Readonly<Record<string, string>> = {}) => fill(texts[key] ?? key, { ...base, ...more });
  const keys = TEXT_KEYS[template];
  const subject = t(keys.subject, { points: format.number(total), mediaLabel: label(total) })
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const greeting = values.name ? t('mail.greeting') : t('mail.greetingAnonymous');
  const intro = t(keys.intro);
  const lines = values.expiries.map((e) => ({
    date: format.day(e.date),
    amount: t('mail.expiry.amount', { points: format.number(e.points), mediaLabel: label(e.points) }),
  }));
  const spent = t('mail.expiry.spentNotCounted');
  const action = t('mail.expiry.action');
  const footer = t('mail.footer');

  const text = [
    branding.clientName,
    '',
    greeting,
    '',
    intro,
    '',
    ...lines.map((l) => `- ${l.date}: ${l.amount}`),
    '',
    spent,
    '',
    `${action}:\n${values.link}`,
    '',
    '--',
    footer,
    '',
  ].join('\n');

  const cell = 'padding:6px 12px;border-bottom:1px solid #e5e7eb;text-align:start;';
  const html = page(
    subject,
    [
      `<p style="margin:0 0 16px;">${escapeHtml(greeting)}</p>`,
      `<p style="margin:0 0 16px;">${escapeHtml(intro)}</p>`,
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse;">`,
      ...lines.map(
        (l) =>
          `<tr><td style="${cell}white-space:nowrap;">${escapeHtml(l.date)}</td><td style="${cell}font-weight:bold;">${escapeHtml(l.amount)}</td></tr>`,
      ),
      '</table>',
      `<p style="margin:0 0 16px;font-size:14px;color:#4b5563;">${escapeHtml(spent)}</p>`,
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;"><tr><td style="background:${branding.brandColor};border-radius:6px;"><a href="${escapeHtml(values.link)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:bold;text-decoration:none;">${escapeHtml(action)}</a></td></tr></table>`,
      `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;"><a href="${escapeHtml(values.link)}" dir="ltr" style="color:${branding.brandColor};">${escapeHtml(values.link)}</a></p>`,
    ].join('\n'),
    footer,
    branding,
  );
  return { subject, text, html };
}

/** The mail of a queued row, rendered now in the client's texts of the row's locale (the participant's when queued). */
export async function composeExpiryMail(
  db: Db,
  client: Pick<Client, 'id' | 'name' | 'brand_color' | 'default_locale'>,
  row: { template: ExpiryMailTemplate; locale: string; participantId: string | null; values: unknown; origin?: string | undefined },
): Promise<RenderedMail> {
  const values = ExpiryMailValues.parse(row.values);
  const origin = absoluteHttpUrl(row.origin ?? '') ?? absoluteHttpUrl(values.link);
  const [{ texts, branding }, labels, participant] = await Promise.all([
    mailLook(db, client, row.locale, origin),
    listMediaLabels(db, client.id),
    row.participantId ? findParticipant(db, client.id, row.participantId) : undefined,
  ]);
  const label = labelFor(chooseLabelForms(labels, row.locale, client.default_locale), row.locale, texts['mail.expiry.points'] ?? '');
  return renderExpiryMail(row.template, texts, { ...values, name: participant?.first_name || undefined }, label, branding);
}
