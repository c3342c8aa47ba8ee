import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Client } from '../clients/tables.ts';
import { listClientLocales, logoUrl } from '../clients/service.ts';
import { buildBundle } from '../i18n/service.ts';
import { LINK_PARAMS, TEMPLATES, type MailBranding } from './render.ts';

/** The mails the portal sends (issue 7); each has a template per client and locale. */
export type MailTemplate = 'forgotUsername' | 'resetPassword' | 'activated' | 'passwordChanged' | 'activationInvite' | 'emailChanged';

export interface OutgoingMail {
  clientId: string;
  /** The participant it is about, if any (for the operator's outbox listing, and the greeting's first name). */
  participantId?: string;
  to: string;
  locale: string;
  template: MailTemplate;
  /**
   * Values for the template. Links are absolute URLs on the client's own origin, e.g.
   * { link: 'https://rewards.acme.example/reset-password?passwordGuid=…' }; usernames
   * as { usernames: 'demo, dana' } and the like. Per template:
   * - forgotUsername: usernames (required), link (the sign-in page, optional)
   * - resetPassword: link and minutes (required)
   * - activated: link (the portal, optional)
   * - passwordChanged: link (the forgot-password page, optional)
   * - activationInvite: link (the activation page, required): resent to a pending participant from the console
   * - emailChanged: maskedEmail (required): to the OLD address when staff changed it (decision 076)
   * name (the greeting's first name) is looked up from participantId when not given.
   */
  params: Readonly<Record<string, string>>;
  /** The client's origin (https://host[:port]) for the logo; default: the origin of params.link. */
  origin?: string;
  /** Reply-To; a plain address. */
  replyTo?: string;
}

const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur']);

/** Wakes the delivery workers of this process; a queued row is only visible once its transaction commits. */
const wakeListeners = new Set<() => void>();

export function onMailQueued(listener: () => void): () => void {
  wakeListeners.add(listener);
  return () => wakeListeners.delete(listener);
}

export function absoluteHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client's texts in a locale and the branding of its mails: name, colour, logo (on the
 * origin, when known) and the locale's direction.
 */
export async function mailLook(
  db: Db,
  client: Pick<Client, 'id' | 'name' | 'brand_color'>,
  locale: string,
  origin?: URL,
): Promise<{ texts: Readonly<Record<string, string>>; branding: MailBranding }> {
  const [bundle, locales] = await Promise.all([buildBundle(db, client.id, locale), listClientLocales(db, client.id)]);
  const offered = locales.find((l) => l.code === locale);
  const dir = offered ? (offered.dir === 'rtl' ? 'rtl' : 'ltr') : RTL_LANGUAGES.has(locale.split('-')[0] ?? '') ? 'rtl' : 'ltr';
  return {
    texts: bundle.properties,
    branding: {
      clientName: client.name,
      // The colour lands in inline styles: only a plain hex colour is let through.
      brandColor: /^#[0-9a-fA-F]{3,8}$/.test(client.brand_color) ? client.brand_color : '#1f2937',
      logoUrl: origin ? `${origin.origin}${logoUrl(client.id)}` : undefined,
      dir,
      locale,
    },
  };
}

/** What a queued row carries for the worker to render it from (the params column, JSON). */
export interface QueuedContent {
  /** The template's values (OutgoingMail.params; a contact message: its facts). */
  values: Readonly<Record<string, unknown>>;
  /** The client's origin, for the logo. */
  origin?: string | undefined;
  /** A stand-in's (template noMail): the template of the mail it stands in for, which the worker renders and drops. */
  standsFor?: MailTemplate | undefined;
}

/**
 * Queues a mail in the caller's transaction, so it is sent only if the change that caused it
 * commits; delivery happens after the reply (never blocking it), with retries. The row carries
 * the template, locale and params; the delivery worker renders it in the client's texts
 * (docs/decisions/042), so the request does one insert and no rendering. A missing param or a
 * relative link is a programming error: it throws (and so rolls back).
 */
export async function queueMail(trx: Transaction<Database>, mail: OutgoingMail): Promise<void> {
  await insertOutboxRow(trx, checkedRow(mail));
}

/** The row of a mail, after the checks queueMail makes (its stand-in's goes through them too). */
function checkedRow(mail: OutgoingMail): QueuedOutboxRow {
  const shape = TEMPLATES[mail.template];
  for (const name of shape.required) {
    if (!mail.params[name]) throw new Error(`queueMail ${mail.template}: param ${name} is required`);
  }
  for (const name of LINK_PARAMS) {
    const value = mail.params[name];
    if (value !== undefined && !absoluteHttpUrl(value))
      throw new Error(`queueMail ${mail.template}: ${name} must be an absolute http(s) URL`);
  }
  const origin = absoluteHttpUrl(mail.origin ?? '') ?? absoluteHttpUrl(mail.params.link ?? '');
  return {
    clientId: mail.clientId,
    participantId: mail.participantId,
    to: mail.to,
    replyTo: mail.replyTo,
    locale: mail.locale,
    template: mail.template,
    content: { values: mail.params, origin: origin?.origin },
    host: origin?.hostname,
  };
}

/**
 * The template of a row that stands for no mail: written where a request that matched nobody
 * would otherwise have written nothing, so that a match and a miss do the same work
 * (docs/decisions/042, 018). The worker renders it as the mail it stands in for and drops it
 * unsent; the listing never shows it.
 */
export const NO_MAIL_TEMPLATE = 'noMail';

/**
 * Writes, in the caller's transaction, the stand-in of the mail a match would have queued: the
 * same checks and the same insert as queueMail, marked to be dropped, with no recipient (nothing
 * the caller typed is kept). For the request that matched nobody, whose reply and time, and the
 * worker's pass after it, must not say so.
 */
export async function queueNoMail(trx: Transaction<Database>, standIn: OutgoingMail): Promise<void> {
  const row = checkedRow(standIn);
  await insertOutboxRow(trx, {
    ...row,
    participantId: undefined,
    to: '',
    template: NO_MAIL_TEMPLATE,
    content: { ...row.content, standsFor: standIn.template },
  });
}

/** An outbox row to insert: who it goes to and what the worker renders it from. */
export interface QueuedOutboxRow {
  /** null: a mail of the installation, not of a client (the console's, decision 049). */
  clientId: string | null;
  participantId?: string | undefined;
  to: string;
  /** Reply-To; a plain address, checked by the caller. */
  replyTo?: string | undefined;
  locale: string;
  /** What the worker renders it with (a key of TEMPLATES, contactMessage, noMail); the listing shows it as the kind of mail. */
  template: string;
  content: QueuedContent;
  /** The client's host (or the console's), for the Message-ID; default <client>.rewards.localhost. */
  host?: string | undefined;
}

/**
 * Inserts a mail into the outbox in the caller's transaction (see queueMail) and wakes the
 * delivery workers; resolves with the row's id. The subject, text and HTML are rendered by the
 * worker; until then they are empty.
 */
export async function insertOutboxRow(trx: Transaction<Database>, mail: QueuedOutboxRow): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await trx
    .insertInto('mail_outbox')
    .values({
      id,
      client_id: mail.clientId,
      participant_id: mail.participantId ?? null,
      to_address: mail.to,
      reply_to: mail.replyTo ?? null,
      locale: mail.locale,
      template: mail.template,
      subject: '',
      text_body: '',
      html_body: '',
      params: JSON.stringify(mail.content),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      claimed_until: null,
      last_error: null,
      delivery_note: null,
      sent_at: null,
      // Stable for the row: were it ever delivered twice, the copies would show as one message.
      message_id: `<${id}@${mail.host ?? `${mail.clientId ?? 'console'}.rewards.localhost`}>`,
      created_at: now,
    })
    .execute();

  // The row is visible once the caller commits, a moment from now: the workers look shortly
  // after, and once more a second later for a slower transaction; the poll is the last net.
  for (const delay of [20, 1_000]) {
    setTimeout(() => {
      for (const listener of wakeListeners) listener();
    }, delay).unref();
  }
  return id;
}
