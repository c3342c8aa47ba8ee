import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Client, Database } from '../../db/schema.ts';
import { logoUrl } from '../clients/service.ts';
import { findClient, listClientLocales } from '../clients/store.ts';
import { buildBundle } from '../i18n/service.ts';
import { LINK_PARAMS, renderMail, TEMPLATES, type MailBranding, type RenderedMail } from './render.ts';

/** The mails the portal sends (issue 7); each has a template per client and locale. */
export type MailTemplate = 'forgotUsername' | 'resetPassword' | 'activated' | 'passwordChanged';

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

function absoluteHttpUrl(value: string): URL | undefined {
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
  trx: Transaction<Database>,
  client: Pick<Client, 'id' | 'name' | 'brand_color'>,
  locale: string,
  origin?: URL,
): Promise<{ texts: Readonly<Record<string, string>>; branding: MailBranding }> {
  const [bundle, locales] = await Promise.all([buildBundle(trx, client.id, locale), listClientLocales(trx, client.id)]);
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

/**
 * Queues a mail in the caller's transaction, so it is sent only if the change that caused it
 * commits; delivery happens after the reply (never blocking it), with retries. The mail is
 * rendered now, in the client's texts for the locale, so what is sent is what the outbox shows.
 * A missing param or a relative link is a programming error: it throws (and so rolls back).
 */
export async function queueMail(trx: Transaction<Database>, mail: OutgoingMail): Promise<void> {
  const shape = TEMPLATES[mail.template];
  for (const name of shape.required) {
    if (!mail.params[name]) throw new Error(`queueMail ${mail.template}: param ${name} is required`);
  }
  for (const name of LINK_PARAMS) {
    const value = mail.params[name];
    if (value !== undefined && !absoluteHttpUrl(value)) throw new Error(`queueMail ${mail.template}: ${name} must be an absolute http(s) URL`);
  }

  const client = await findClient(trx, mail.clientId);
  if (!client) throw new Error(`queueMail: unknown client ${mail.clientId}`);
  const origin = absoluteHttpUrl(mail.origin ?? '') ?? absoluteHttpUrl(mail.params.link ?? '');
  const { texts, branding } = await mailLook(trx, client, mail.locale, origin);

  const params: Record<string, string> = { ...mail.params };
  if (params.name === undefined && mail.participantId) {
    const participant = await trx
      .selectFrom('participants')
      .select('first_name')
      .where('client_id', '=', mail.clientId)
      .where('id', '=', mail.participantId)
      .executeTakeFirst();
    if (participant?.first_name) params.name = participant.first_name;
  }

  const rendered = renderMail(mail.template, texts, params, branding);

  await insertOutboxRow(trx, {
    clientId: mail.clientId,
    participantId: mail.participantId,
    to: mail.to,
    replyTo: mail.replyTo,
    locale: mail.locale,
    template: mail.template,
    rendered,
    host: origin?.hostname,
  });
}

/** A mail rendered by its caller (e.g. the support desk's copy of a contact message, decision 038). */
export interface RenderedOutgoingMail {
  clientId: string;
  participantId?: string | undefined;
  to: string;
  /** Reply-To; a plain address, checked by the caller. */
  replyTo?: string | undefined;
  locale: string;
  /** What the outbox listing shows as the kind of mail. */
  template: string;
  rendered: RenderedMail;
  /** The client's host, for the Message-ID; default <client>.rewards.localhost. */
  host?: string | undefined;
}

/**
 * Inserts a rendered mail into the outbox in the caller's transaction (see queueMail) and wakes
 * the delivery workers; resolves with the row's id.
 */
export async function insertOutboxRow(trx: Transaction<Database>, mail: RenderedOutgoingMail): Promise<string> {
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
      // Headers are one line: whatever a caller put in, a line break never reaches the row.
      subject: mail.rendered.subject.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim(),
      text_body: mail.rendered.text,
      html_body: mail.rendered.html,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      claimed_until: null,
      last_error: null,
      delivery_note: null,
      sent_at: null,
      // Stable for the row: were it ever delivered twice, the copies would show as one message.
      message_id: `<${id}@${mail.host ?? `${mail.clientId}.rewards.localhost`}>`,
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
