import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Client } from '../clients/tables.ts';
import type { Participant } from '../participants/tables.ts';
import type { ContactRequestsTable } from './tables.ts';
import { insertOutboxRow, mailLook } from '../mail/outbox.ts';
import { escapeHtml, fill, page, type MailBranding, type RenderedMail } from '../mail/render.ts';

/**
 * The support desk's copy of a contact message (docs/decisions/038): to the client's
 * support_email, Reply-To the participant, in the client's default language. Everything the
 * participant wrote is plain text here: escaped in the HTML part, and kept to one line in the
 * subject (a line break there could otherwise start a header of its own).
 */

/** What the outbox lists as the kind of this mail. */
export const CONTACT_MAIL_TEMPLATE = 'contactMessage';

// One plain address, nothing a header parser could read as a second address, a comment or a line.
const PLAIN_ADDRESS = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/u;

/** The address as it may go into To or Reply-To, or undefined when it is not one plain address. */
export function plainAddress(value: string | null | undefined): string | undefined {
  const address = value?.trim() ?? '';
  return address.length <= 254 && PLAIN_ADDRESS.test(address) && !/\p{Cc}/u.test(address) ? address : undefined;
}

/** A header's worth of text: control characters (CR, LF, tab…) become one space. */
export function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
}

export type ContactFacts = Pick<
  ContactRequestsTable,
  | 'id'
  | 'participant_id'
  | 'username'
  | 'account_number'
  | 'account_email'
  | 'topic'
  | 'subject'
  | 'message'
  | 'reply_email'
  | 'phone'
  | 'locale'
  | 'admin_as_user'
  | 'created_at'
> & { name: string };

/** 2026-11-22T17:30:05.123Z → 2026-11-22 17:30:05 UTC */
function utcStamp(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** Pure: the subject, text and HTML of the desk's mail, in the given texts (the desk's language). */
export function renderContactMail(
  texts: Readonly<Record<string, string>>,
  facts: ContactFacts,
  replyTo: string | undefined,
  branding: MailBranding,
): RenderedMail {
  const t = (key: string, values: Readonly<Record<string, string>> = {}) =>
    fill(texts[key] ?? key, { clientName: branding.clientName, ...values });
  const topic = t(`contact.topic.${facts.topic}`);
  const subject = oneLine(t('contactMail.subject', { topic, subject: oneLine(facts.subject) }));
  const none = t('contactMail.none');
  const rows: Array<[string, string]> = [
    [t('contactMail.from'), facts.name],
    [t('contactMail.username'), facts.username],
    [t('contactMail.participantId'), facts.participant_id],
    [t('contactMail.accountNumber'), facts.account_number],
    [t('contactMail.accountEmail'), facts.account_email || none],
    [t('contactMail.replyEmail'), facts.reply_email ?? none],
    [t('contactMail.phone'), facts.phone ?? none],
    [t('contactMail.language'), facts.locale],
    [t('contactMail.topic'), topic],
    [t('contactMail.subjectLabel'), oneLine(facts.subject)],
    [t('contactMail.sentAt'), utcStamp(facts.created_at)],
    [t('contactMail.reference'), facts.id],
  ];
  const intro = t('contactMail.intro');
  const onBehalf = facts.admin_as_user ? t('contactMail.byAdministrator') : undefined;
  const footer = replyTo ? t('contactMail.footerReply', { replyTo }) : t('contactMail.footerNoReply');
  const message = facts.message.replace(/\r\n?/g, '\n');

  const text = [
    branding.clientName,
    '',
    intro,
    ...(onBehalf ? ['', onBehalf] : []),
    '',
    ...rows.map(([label, value]) => `${label}: ${oneLine(value)}`),
    '',
    `${t('contactMail.message')}:`,
    message,
    '',
    '--',
    footer,
    '',
  ].join('\n');

  const cell = 'padding:4px 12px 4px 0;vertical-align:top;';
  const html = page(
    subject,
    [
      `<p style="margin:0 0 16px;">${escapeHtml(intro)}</p>`,
      onBehalf ? `<p style="margin:0 0 16px;font-weight:bold;">${escapeHtml(onBehalf)}</p>` : '',
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;font-size:14px;">`,
      ...rows.map(
        ([label, value]) =>
          `<tr><td style="${cell}color:#4b5563;white-space:nowrap;">${escapeHtml(label)}</td><td dir="auto" style="${cell}text-align:start;word-break:break-word;">${escapeHtml(oneLine(value))}</td></tr>`,
      ),
      '</table>',
      `<p style="margin:0 0 8px;font-weight:bold;">${escapeHtml(t('contactMail.message'))}</p>`,
      // The participant's own words, in their own direction; line breaks kept as <br>.
      `<div dir="auto" style="margin:0 0 16px;padding:12px;border:1px solid #e5e7eb;border-radius:6px;text-align:start;word-break:break-word;">${escapeHtml(message).replaceAll('\n', '<br>\n')}</div>`,
    ]
      .filter((part) => part !== '')
      .join('\n'),
    footer,
    branding,
  );
  return { subject, text, html };
}

/**
 * Queues the desk's mail in the caller's transaction (the one that stores the request); resolves
 * with the outbox row's id, or null when the client has no (usable) support address: the
 * request is then only stored, and `rewards contact list` shows it. The row carries the facts;
 * the delivery worker renders them (composeContactMail), like every outbox mail (decision 042).
 */
export async function queueContactMail(
  trx: Transaction<Database>,
  client: Pick<Client, 'id' | 'default_locale' | 'support_email'>,
  participant: Pick<Participant, 'first_name' | 'last_name'>,
  request: Omit<ContactFacts, 'name'>,
): Promise<string | null> {
  const to = plainAddress(client.support_email);
  if (!to) return null;
  const replyTo = plainAddress(request.reply_email) ?? plainAddress(request.account_email);
  const name = `${participant.first_name} ${participant.last_name}`.trim() || request.username;
  const facts: ContactFacts = { ...request, name };
  return insertOutboxRow(trx, {
    clientId: client.id,
    participantId: request.participant_id,
    to,
    replyTo,
    locale: client.default_locale,
    template: CONTACT_MAIL_TEMPLATE,
    content: { values: facts },
  });
}

/** The facts as queueContactMail wrote them into the outbox row. */
const StoredFacts = z.object({
  id: z.string(),
  participant_id: z.string(),
  username: z.string(),
  account_number: z.string(),
  account_email: z.string(),
  topic: z.string(),
  subject: z.string(),
  message: z.string(),
  reply_email: z.string().nullable(),
  phone: z.string().nullable(),
  locale: z.string(),
  admin_as_user: z.number(),
  created_at: z.string(),
  name: z.string(),
});

/** The desk's mail of a queued row, rendered in the client's texts of `locale` (its default language when queued). */
export async function composeContactMail(
  db: Db,
  client: Pick<Client, 'id' | 'name' | 'brand_color'>,
  locale: string,
  values: unknown,
  replyTo: string | undefined,
): Promise<RenderedMail> {
  const facts = StoredFacts.parse(values);
  const { texts, branding } = await mailLook(db, client, locale);
  return renderContactMail(texts, facts, replyTo, branding);
}
