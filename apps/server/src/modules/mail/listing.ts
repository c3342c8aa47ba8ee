import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { composeQueuedMail, oneLineSubject } from './compose.ts';
import { parseEml } from './eml.ts';
import { NO_MAIL_TEMPLATE } from './outbox.ts';
import { linksIn } from './render.ts';

/** One mail as `npm run rewards -- outbox --json` prints it (the browser tests read this shape). */
export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  template: string;
  status: string;
  createdAt: string;
  text: string;
  html: string;
  /** Every http(s) address in the text part, in order. */
  links: string[];
}

type Content = Pick<OutboxEntry, 'subject' | 'text' | 'html'>;

const FILE_NOTE = 'file: ';

/**
 * What a mail says (docs/decisions/042): a mail not sent yet is rendered as the worker would
 * render it now; one sent or given up keeps no text in the database, so it is read back from
 * its delivered .eml when it went to a file and that file can be read here (the embedded
 * default), and is otherwise its subject alone. A row written before migration 018 and still
 * pending holds its text.
 */
async function contentOf(
  db: Db,
  row: {
    client_id: string | null;
    participant_id: string | null;
    locale: string;
    template: string;
    reply_to: string | null;
    params: string | null;
    subject: string;
    text_body: string;
    html_body: string;
    delivery_note: string | null;
  },
): Promise<Content> {
  const stored = { subject: row.subject, text: row.text_body, html: row.html_body };
  if (row.params !== null) {
    try {
      const rendered = await composeQueuedMail(db, { ...row, params: row.params });
      return { subject: oneLineSubject(rendered.subject), text: rendered.text, html: rendered.html };
    } catch {
      return stored;
    }
  }
  if (stored.text === '' && row.delivery_note?.startsWith(FILE_NOTE)) {
    try {
      const eml = parseEml(await readFile(row.delivery_note.slice(FILE_NOTE.length), 'utf8'));
      return { subject: row.subject, text: eml.text, html: eml.html };
    } catch {
      // Removed, moved, or not readable by whoever lists: the subject alone.
    }
  }
  return stored;
}

/** The latest mails, newest first; of one client or of all. */
export async function listOutbox(db: Db, options: { limit: number; clientId?: string | undefined }): Promise<OutboxEntry[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select([
      'id',
      'client_id',
      'participant_id',
      'to_address',
      'reply_to',
      'locale',
      'subject',
      'template',
      'status',
      'created_at',
      'text_body',
      'html_body',
      'params',
      'delivery_note',
    ])
    // Rows that stand for no mail are not mails (decision 042).
    .where('template', '<>', NO_MAIL_TEMPLATE)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.clientId !== undefined) query = query.where('client_id', '=', options.clientId);
  const rows = await query.execute();
  const entries: OutboxEntry[] = [];
  for (const row of rows) {
    const { subject, text, html } = await contentOf(db, row);
    entries.push({
      id: row.id,
      to: row.to_address,
      subject,
      template: row.template,
      status: row.status,
      createdAt: row.created_at,
      text,
      html,
      links: linksIn(text),
    });
  }
  return entries;
}

export interface OutboxStanding {
  /** Mails not delivered yet: waiting for their attempt or being sent (at most the cap). */
  pending: number;
  /** created_at of the oldest of them (ISO), undefined when none. */
  oldestPendingAt: string | undefined;
  /** Mails given up (at most the cap). */
  failed: number;
}

/**
 * What the outbox holds undelivered, for the metrics (decision 079): through mail_outbox_due_idx
 * (status, next_attempt_at), so only pending, sending and failed rows are read, never the sent
 * ones, and each count stops at `cap` rows.
 */
export async function outboxStanding(db: Db, cap: number): Promise<OutboxStanding> {
  const pending = await db
    .selectFrom((eb) => eb.selectFrom('mail_outbox').select('created_at').where('status', 'in', ['pending', 'sending']).limit(cap).as('p'))
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('p.created_at').as('oldest')])
    .executeTakeFirstOrThrow();
  const failed = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('mail_outbox')
        .select(sql<number>`1`.as('one'))
        .where('status', '=', 'failed')
        .limit(cap)
        .as('f'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { pending: Number(pending.n), oldestPendingAt: pending.oldest ?? undefined, failed: Number(failed.n) };
}

export interface MailState {
  status: string;
  to: string;
  sentAt: string | null;
  error: string | null;
}

/** Where each of a client's mails stands, by id (the ones that exist). */
export async function mailStates(db: Db, clientId: string, ids: readonly string[]): Promise<Map<string, MailState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'status', 'to_address', 'sent_at', 'last_error'])
    .where('client_id', '=', clientId)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, { status: r.status, to: r.to_address, sentAt: r.sent_at, error: r.last_error }]));
}

/** A participant's newest mails for the console: what was sent and how it went, never the bodies nor the values they are rendered from. */
export async function participantMails(db: Db, clientId: string, participantId: string, limit: number) {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'template', 'subject', 'to_address', 'status', 'created_at', 'sent_at', 'delivery_note', 'last_error'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
