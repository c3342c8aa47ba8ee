import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { logoUrl } from '../clients/service.ts';
import { findClient, listClientLocales } from '../clients/store.ts';
import { buildBundle } from '../i18n/service.ts';
import { LINK_PARAMS, renderMail, TEMPLATES } from './render.ts';

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
  const [bundle, locales] = await Promise.all([buildBundle(trx, mail.clientId, mail.locale), listClientLocales(trx, mail.clientId)]);
  const offered = locales.find((l) => l.code === mail.locale);
  const dir = offered ? (offered.dir === 'rtl' ? 'rtl' : 'ltr') : RTL_LANGUAGES.has(mail.locale.split('-')[0] ?? '') ? 'rtl' : 'ltr';

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

  const origin = absoluteHttpUrl(mail.origin ?? '') ?? absoluteHttpUrl(mail.params.link ?? '');
  const rendered = renderMail(mail.template, bundle.properties, params, {
    clientName: client.name,
    // The colour lands in inline styles: only a plain hex colour is let through.
    brandColor: /^#[0-9a-fA-F]{3,8}$/.test(client.brand_color) ? client.brand_color : '#1f2937',
    logoUrl: origin ? `${origin.origin}${logoUrl(client.id)}` : undefined,
    dir,
    locale: mail.locale,
  });

  const id = randomUUID();
  const now = new Date().toISOString();
  await trx
    .insertInto('mail_outbox')
    .values({
      id,
      client_id: mail.clientId,
      participant_id: mail.participantId ?? null,
      to_address: mail.to,
      locale: mail.locale,
      template: mail.template,
      subject: rendered.subject,
      text_body: rendered.text,
      html_body: rendered.html,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      claimed_until: null,
      last_error: null,
      delivery_note: null,
      sent_at: null,
      // Stable for the row: were it ever delivered twice, the copies would show as one message.
      message_id: `<${id}@${origin?.hostname ?? `${mail.clientId}.rewards.localhost`}>`,
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
}
