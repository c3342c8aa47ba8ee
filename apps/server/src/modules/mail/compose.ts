import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MailOutboxTable } from './tables.ts';
import { findClient } from '../clients/service.ts';
import { composeContactMail, CONTACT_MAIL_TEMPLATE } from '../content/contact-mail.ts';
import { composeExpiryMail, isExpiryMailTemplate } from '../expiry/reminder-mail.ts';
import { findParticipant } from '../participants/service.ts';
import { composeStaffMail } from '../staff/mail.ts';
import { absoluteHttpUrl, mailLook, NO_MAIL_TEMPLATE, type MailTemplate, type QueuedContent } from './outbox.ts';
import { renderMail, TEMPLATES, type RenderedMail } from './render.ts';

/** The columns a queued row is rendered from. */
export type QueuedRow = Pick<Selectable<MailOutboxTable>, 'client_id' | 'participant_id' | 'locale' | 'template' | 'reply_to'> & {
  params: string;
};

function isTemplate(template: string): template is MailTemplate {
  return Object.hasOwn(TEMPLATES, template);
}

/** The template's values as the renderer takes them: text only (queueMail wrote strings). */
function textValues(values: QueuedContent['values']): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string') texts[name] = value;
  return texts;
}

/**
 * Renders a queued row in the client's texts as they are now (docs/decisions/042): the delivery
 * worker, just before sending, and the operator's listing, for a mail not sent yet. Throws when
 * the row cannot be rendered (its client is gone, its template unknown): the worker then tries
 * again later and gives up after the configured attempts.
 */
export async function composeQueuedMail(db: Db, row: QueuedRow): Promise<RenderedMail> {
  const content = JSON.parse(row.params) as QueuedContent;
  // No client: a mail of the installation (the console's enrolment links, decision 049; its notices, 084).
  if (row.client_id === null) return composeStaffMail(row.template, content.values, row.locale);
  const client = await findClient(db, row.client_id);
  if (!client) throw new Error("the mail's client is gone");
  if (row.template === CONTACT_MAIL_TEMPLATE) return composeContactMail(db, client, row.locale, content.values, row.reply_to ?? undefined);
  if (isExpiryMailTemplate(row.template))
    return composeExpiryMail(db, client, {
      template: row.template,
      locale: row.locale,
      participantId: row.participant_id,
      values: content.values,
      origin: content.origin,
    });
  // A stand-in (decision 042) is rendered as the mail it stands in for, then dropped unsent.
  const standIn = row.template === NO_MAIL_TEMPLATE;
  const template = standIn ? content.standsFor : row.template;
  if (template === undefined || !isTemplate(template)) throw new Error('unknown mail template');

  const params = textValues(content.values);
  const origin = absoluteHttpUrl(content.origin ?? '');
  const { texts, branding } = await mailLook(db, client, row.locale, origin);
  if (params.name === undefined && (row.participant_id || standIn)) {
    // A stand-in looks up nobody (a random id), as its mail would have looked up the participant.
    const participant = await findParticipant(db, row.client_id, row.participant_id ?? randomUUID());
    if (participant?.first_name) params.name = participant.first_name;
  }
  return renderMail(template, texts, params, branding);
}

/** Headers are one line: whatever a template or a participant put in, a line break never reaches one. */
export function oneLineSubject(subject: string): string {
  return subject.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
}
