import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { baseBundles, FALLBACK_LOCALE } from '../i18n/base-bundles.ts';
import { insertOutboxRow } from '../mail/outbox.ts';
import { escapeHtml, fill, page, type MailBranding, type RenderedMail } from '../mail/render.ts';

/**
 * The console's mails (docs/decisions/049): the enrolment link of an invitation or a reset,
 * sent by the installation, not by a client. They go through the outbox like every mail (queued
 * in the transaction of the change, rendered and delivered by the worker, erased once sent or
 * given up: decision 042) as rows with client_id null. English only: staff read English
 * (issue 17), and the console's own texts are English too.
 */
export const STAFF_MAIL_TEMPLATES = ['staffInvitation', 'staffReset'] as const;
export type StaffMailTemplate = (typeof STAFF_MAIL_TEMPLATES)[number];

/** Who the mail says it is from, and the wordmark of its card. */
export const CONSOLE_SENDER_NAME = 'Rewards console';

export interface StaffMail {
  template: StaffMailTemplate;
  to: string;
  /** The person's name, for the greeting. */
  name: string;
  /** The enrolment link: <console origin>/console/enrol#<token>. */
  link: string;
  /** Until when the link works (ISO). */
  expiresAt: string;
  /** Who invited or reset them (a staff e-mail, or the operator). */
  by: string;
  /** The console's host, for the Message-ID. */
  host: string;
}

const TEXTS: Record<StaffMailTemplate, { subject: string; intro: string; action: string }> = {
  staffInvitation: {
    subject: 'Your invitation to the Rewards console',
    intro:
      '{by} has invited you to the Rewards console. Set your password and a second factor (a passkey or an authenticator app) from this link:',
    action: 'Set up my account',
  },
  staffReset: {
    subject: 'Set up your Rewards console account again',
    intro: '{by} has reset your Rewards console account: your password and second factors no longer work. Set them again from this link:',
    action: 'Set up my account again',
  },
};
const GREETING = 'Hello {name},';
const EXPIRY = 'The link works once, until {expiresAt} (UTC). Do not forward it: whoever opens it sets the password.';
const IGNORE = 'If you did not expect this mail, ignore it and tell your console owner.';
const FOOTER = 'Sent by the Rewards console.';

const BRANDING: MailBranding = { clientName: CONSOLE_SENDER_NAME, brandColor: '#1f2937', logoUrl: undefined, dir: 'ltr', locale: 'en' };

export function isStaffMailTemplate(template: string): template is StaffMailTemplate {
  return (STAFF_MAIL_TEMPLATES as readonly string[]).includes(template);
}

/**
 * The installation's notices to staff about a client (no enrolment link, nothing that expires):
 * their texts are in the shipped translation tables (`webhook-mail.<locale>.json`), not the
 * client's wording, since they come from the installation, not from the client.
 */
export const STAFF_NOTICE_TEMPLATES = ['webhookEndpointDisabled'] as const;
export type StaffNoticeTemplate = (typeof STAFF_NOTICE_TEMPLATES)[number];

function isStaffNoticeTemplate(template: string): template is StaffNoticeTemplate {
  return (STAFF_NOTICE_TEMPLATES as readonly string[]).includes(template);
}

export interface WebhookDisabledNotice {
  to: string;
  name: string;
  clientName: string;
  /** The endpoint's URL host (never its path or query, which may carry a token). */
  host: string;
  description: string;
  /** Since when every delivery failed (ISO). */
  failingSince: string;
  /** The last attempt's error, short and without secrets (the delivery's last_error). */
  lastError: string;
  /** The console's Settings → Webhooks page of the client. */
  link: string;
  /** The console's host, for the Message-ID. */
  consoleHost: string;
}

/**
 * Queues, in the caller's transaction, the notice that a client's webhook endpoint was disabled
 * (decision 084): it exists exactly when the disabling commits. English, as the console is
 * (decision 049); the other shipped locales have the texts too, should staff ever get a locale.
 */
export async function queueWebhookDisabledNotice(trx: Transaction<Database>, notice: WebhookDisabledNotice): Promise<void> {
  if (!/^https?:\/\//.test(notice.link)) throw new Error('a webhook notice needs the console link');
  const { to, consoleHost, ...values } = notice;
  await insertOutboxRow(trx, {
    clientId: null,
    to,
    locale: FALLBACK_LOCALE,
    template: 'webhookEndpointDisabled',
    content: { values },
    host: consoleHost,
  });
}

/** "2026-11-25T09:00:00.000Z" as "2026-11-25 09:00:00". */
const utcText = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

function composeWebhookDisabledNotice(locale: string, strings: Readonly<Record<string, string>>): RenderedMail {
  const texts = { ...baseBundles.get(FALLBACK_LOCALE), ...baseBundles.get(locale) };
  const link = strings.link ?? '';
  if (!/^https?:\/\//.test(link)) throw new Error('a webhook notice needs the console link');
  const values = { ...strings, failingSince: utcText(strings.failingSince ?? '') };
  const t = (key: string) => fill(texts[key] ?? key, values);
  const subject = t('mail.webhookEndpointDisabled.subject').replace(/[\r\n]+/g, ' ');
  const facts = [
    t('mail.webhookEndpointDisabled.endpoint'),
    ...(strings.description ? [t('mail.webhookEndpointDisabled.description')] : []),
    ...(strings.lastError ? [t('mail.webhookEndpointDisabled.lastError')] : []),
  ];
  const lines = {
    greeting: strings.name ? t('mail.greeting') : t('mail.greetingAnonymous'),
    intro: t('mail.webhookEndpointDisabled.intro'),
    held: t('mail.webhookEndpointDisabled.held'),
    enableAgain: t('mail.webhookEndpointDisabled.enableAgain'),
    action: t('mail.webhookEndpointDisabled.action'),
    why: t('mail.webhookEndpointDisabled.why'),
    footer: t('mail.webhookEndpointDisabled.footer'),
  };
  const text = `${CONSOLE_SENDER_NAME}\n\n${lines.greeting}\n\n${lines.intro}\n\n${facts.join('\n')}\n\n${lines.held}\n\n${lines.enableAgain}\n\n${lines.action}:\n${link}\n\n${lines.why}\n\n--\n${lines.footer}\n`;
  const p = (line: string, style = '') => `<p style="margin:0 0 16px;${style}">${escapeHtml(line)}</p>`;
  const branding: MailBranding = { ...BRANDING, locale, dir: locale.split('-')[0] === 'ar' ? 'rtl' : 'ltr' };
  const body = [
    p(lines.greeting),
    p(lines.intro),
    `<p style="margin:0 0 16px;font-weight:bold;">${facts.map(escapeHtml).join('<br>')}</p>`,
    p(lines.held),
    p(lines.enableAgain),
    actionButton(lines.action, link),
    `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;"><a href="${escapeHtml(link)}" dir="ltr" style="color:${BRANDING.brandColor};">${escapeHtml(link)}</a></p>`,
    p(lines.why, 'font-size:13px;color:#4b5563;'),
  ].join('\n');
  return { subject, text, html: page(subject, body, lines.footer, branding) };
}

function actionButton(label: string, link: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;"><tr><td style="background:${BRANDING.brandColor};border-radius:6px;"><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:bold;text-decoration:none;">${escapeHtml(label)}</a></td></tr></table>`;
}

/**
 * Queues the mail in the caller's transaction: it exists exactly when the change commits. The
 * row holds the link (in params) only until the worker has sent it or given it up.
 */
export async function queueStaffMail(trx: Transaction<Database>, mail: StaffMail): Promise<void> {
  await insertOutboxRow(trx, {
    clientId: null,
    to: mail.to,
    locale: 'en',
    template: mail.template,
    content: { values: { name: mail.name, link: mail.link, expiresAt: mail.expiresAt, by: mail.by } },
    host: mail.host,
  });
}

/** Renders a queued staff mail (the delivery worker, the outbox listing); throws on an unknown template. */
export function composeStaffMail(template: string, values: Readonly<Record<string, unknown>>, locale = FALLBACK_LOCALE): RenderedMail {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (typeof value === 'string') strings[key] = value;
  if (isStaffNoticeTemplate(template)) return composeWebhookDisabledNotice(locale, strings);
  if (!isStaffMailTemplate(template)) throw new Error('unknown installation mail template');
  const texts = TEXTS[template];
  const link = strings.link ?? '';
  if (!/^https?:\/\//.test(link)) throw new Error('a staff mail needs its link');
  const expiresAt = utcText(strings.expiresAt ?? '');
  const t = (text: string) => fill(text, { ...strings, expiresAt });
  const lines = { greeting: t(GREETING), intro: t(texts.intro), action: t(texts.action), expiry: t(EXPIRY), ignore: t(IGNORE) };
  const text = `${CONSOLE_SENDER_NAME}\n\n${lines.greeting}\n\n${lines.intro}\n\n${lines.action}:\n${link}\n\n${lines.expiry}\n\n${lines.ignore}\n\n--\n${FOOTER}\n`;
  const p = (line: string) => `<p style="margin:0 0 16px;">${escapeHtml(line)}</p>`;
  const body = [
    p(lines.greeting),
    p(lines.intro),
    actionButton(lines.action, link),
    `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;"><a href="${escapeHtml(link)}" dir="ltr" style="color:${BRANDING.brandColor};">${escapeHtml(link)}</a></p>`,
    p(lines.expiry),
    p(lines.ignore),
  ].join('\n');
  return { subject: texts.subject, text, html: page(texts.subject, body, FOOTER, BRANDING) };
}
