import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  PUBLIC_CONTENT_KEYS,
  RULES_KEY_PREFIX,
  contentKeys,
  type ContactReply,
  type ContactRequest,
  type ContentReply,
} from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../sessions/tables.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { findClient } from '../clients/service.ts';
import { limitsOf, type LimitPolicy } from '../limits/policy.ts';
import { mailStates } from '../mail/listing.ts';
import { giveBack, takeSlots } from '../limits/service.ts';
import { findParticipant, listProgramNames } from '../participants/service.ts';
import { oneLine, queueContactMail } from './contact-mail.ts';
import { renderMarkdown } from './markdown.ts';
import { findContentEntries, insertContactRequest, listContactRequestRows } from './store.ts';

// The console's participant page lists their newest contact requests (issue 30 §3).
export { participantContactRequests } from './store.ts';

/** A client's contact requests, newest first, with the state of the mail that carries each (if any): what `rewards contact list` shows. */
export async function listContactRequests(db: Db, options: { clientId: string; since?: string | undefined; limit: number }) {
  const rows = await listContactRequestRows(db, options);
  const mails = await mailStates(
    db,
    options.clientId,
    rows.flatMap((r) => (r.mail_id ? [r.mail_id] : [])),
  );
  return rows.map((row) => ({ ...row, mail: row.mail_id ? (mails.get(row.mail_id) ?? null) : null }));
}
// What `rewards clients show` lists: which text exists in which locale, without its body.
export { listContentEntries } from './store.ts';

/** The language every client's content falls back to last. */
const LAST_RESORT_LOCALE = 'en-US';

const contentNotFound = () => new ApiError(404, ErrorCode.contentNotFound, 'content.error.notFound', 'No such content');
const notYourProgram = () =>
  new ApiError(403, ErrorCode.rulesNotYourProgram, 'content.error.notYourProgram', 'Not a program of this participant');
const contactThrottled = () =>
  new ApiError(429, ErrorCode.contactThrottled, 'contact.error.throttled', 'Too many messages; try again later');

/** Who is asking: a signed-in session, or an anonymous visitor with an optional language. */
export interface ContentReader {
  clientId: string;
  session: Session | null;
  /** ?locale= of an anonymous visitor; ignored when signed in. */
  locale?: string | undefined;
}

/**
 * Decision 011: FAQs and the privacy policy are public; the privacy notice needs a session;
 * a program's rules need a session of a participant in that program. Any other key is unknown.
 */
async function checkAccess(db: Db, reader: ContentReader, key: string): Promise<void> {
  if (PUBLIC_CONTENT_KEYS.includes(key)) return;
  const isRules = key.startsWith(RULES_KEY_PREFIX) && key.length > RULES_KEY_PREFIX.length;
  if (key !== contentKeys.privacyNotice && !isRules) throw contentNotFound();
  if (!reader.session) throw errors.sessionRequired();
  if (isRules) {
    const programs = await listProgramNames(db, reader.clientId, reader.session.participant_id);
    if (!programs.includes(key.slice(RULES_KEY_PREFIX.length))) throw notYourProgram();
  }
}

/** The participant's language when signed in, else the visitor's choice, else the client's. */
async function wantedLocales(db: Db, reader: ContentReader): Promise<string[]> {
  const client = await findClient(db, reader.clientId);
  if (!client) throw errors.unknownClient();
  let wanted = reader.locale ?? client.default_locale;
  if (reader.session) {
    const participant = await findParticipant(db, reader.clientId, reader.session.participant_id);
    if (!participant) throw errors.sessionRequired();
    wanted = participant.locale;
  }
  return [...new Set([wanted, client.default_locale, LAST_RESORT_LOCALE])];
}

/** `GET cmmo/key/honeycombSystem/{key}`: the text in the best available language, as safe HTML. */
export async function getContent(db: Db, reader: ContentReader, key: string): Promise<ContentReply> {
  await checkAccess(db, reader, key);
  const locales = await wantedLocales(db, reader);
  const entries = await findContentEntries(db, reader.clientId, key, locales);
  const best = locales.map((locale) => entries.find((entry) => entry.locale === locale)).find((entry) => entry !== undefined);
  if (!best) throw contentNotFound();
  return { properties: [{ value: renderMarkdown(best.body), locale: best.locale, updatedAt: best.updated_at }] };
}

/**
 * `POST contactUs`: stored for the client's support desk with who wrote it, and mailed to the
 * desk's support_email in the same transaction when the client has one (decision 038). At most
 * CONTACT_THROTTLE.max per participant per window: the slot is taken before the message is
 * stored (decision 040), and given back if storing it fails.
 */
export async function submitContact(
  db: Db,
  limits: LimitPolicy,
  session: Session,
  form: ContactRequest,
  now = new Date(),
): Promise<ContactReply> {
  const participant = await findParticipant(db, session.client_id, session.participant_id);
  if (!participant) throw errors.sessionRequired();
  const slots = await takeSlots(db, session.client_id, limitsOf(limits).contact(participant.id), contactThrottled, now);

  const request = {
    id: randomUUID(),
    client_id: session.client_id,
    participant_id: participant.id,
    username: participant.username,
    account_number: participant.account_number,
    account_email: participant.email,
    topic: form.topic,
    // A subject is one line (it becomes a mail header): control characters become spaces.
    subject: oneLine(form.subject),
    message: form.message,
    reply_email: form.replyEmail || null,
    phone: form.phone || null,
    locale: participant.locale,
    admin_as_user: session.admin_as_user,
    status: 'new',
    created_at: now.toISOString(),
  };
  // Stored and mailed together (decision 038): a rollback leaves neither, a commit both.
  try {
    await db.transaction().execute(async (trx) => {
      const client = await findClient(trx, session.client_id);
      if (!client) throw errors.unknownClient();
      const mailId = await queueContactMail(trx, client, participant, request);
      await insertContactRequest(trx, { ...request, mail_id: mailId });
    });
  } catch (error) {
    await giveBack(db, slots);
    throw error;
  }
  return { requestId: request.id, status: 'new' };
}
