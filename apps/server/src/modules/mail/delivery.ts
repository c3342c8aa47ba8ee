import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Selectable } from 'kysely';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { MailOutboxTable } from './tables.ts';
import { composeQueuedMail, oneLineSubject } from './compose.ts';
import { NO_MAIL_TEMPLATE, onMailQueued } from './outbox.ts';
import { findClient } from '../clients/service.ts';
import { startWakeLoop } from '../jobs/wake-loop.ts';
import { linksIn } from './render.ts';
import { CONSOLE_SENDER_NAME } from '../staff/mail.ts';

/**
 * Delivery of the outbox (docs/decisions/042). A row is claimed (pending → sending, with a lease)
 * by one conditional UPDATE before anything is sent, so two workers never send the same row.
 * Delivery is at most once: a row is tried again only when the SMTP server surely did not take
 * it (it answered with a refusal, or could not be reached); an outcome that cannot be known
 * (the connection dropped mid-message, the process died while sending) ends as failed.
 *
 * The worker renders each mail just before sending it (docs/decisions/042), and once a mail is
 * sent or given up it erases what could hold a link (the params, the text and the HTML), keeping
 * who, which template, the subject, the status and the times for the listings. Without SMTP the
 * .eml files are written 0600 in a 0700 folder, like the installation's keys.
 */

export interface MailLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface MailDeliveryOptions {
  db: Db;
  mail: Config['mail'];
  log: MailLog;
  /** Injectable clock (tests); default the wall clock. */
  now?: () => Date;
  /** Delay before attempt n+1 after n failed attempts; default 30 s, 2 min, 10 min, 30 min, then hourly. */
  backoffMs?: (failedAttempts: number) => number;
  /** How long a claim holds; longer than any send can take (the SMTP timeouts below). */
  leaseMs?: number;
  /** Poll period, the safety net behind the wake-up after each queued mail. */
  pollMs?: number;
}

const BACKOFF_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000];

export function defaultBackoffMs(failedAttempts: number): number {
  return BACKOFF_MS[Math.min(failedAttempts, BACKOFF_MS.length) - 1] ?? BACKOFF_MS[0] ?? 30_000;
}

const LEASE_MS = 5 * 60_000;
const BATCH = 20;
/** A stand-in's message is built for this reserved address (RFC 2606) and never sent. */
const STAND_IN_RECIPIENT = 'no-mail@invalid';
/** Dropped stand-ins are deleted this long after they were queued, in bulk, well apart from the request that wrote them. */
const STAND_IN_KEPT_MS = 24 * 60 * 60_000;

const ROW_COLUMNS = [
  'id',
  'client_id',
  'participant_id',
  'to_address',
  'reply_to',
  'locale',
  'template',
  'subject',
  'text_body',
  'html_body',
  'params',
  'attempts',
  'message_id',
  'created_at',
] as const;
type Row = Pick<Selectable<MailOutboxTable>, (typeof ROW_COLUMNS)[number]>;

/** A mail as it goes out: the row's envelope and what was rendered for it. */
interface Message {
  id: string;
  template: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  createdAt: string;
  /**
   * Whether the development mode's log line may show its link: a participant's, yes (decision
   * 017); an installation mail's, never: its link is a console enrolment token (decision 049),
   * read back with `rewards outbox` instead.
   */
  linkInLog: boolean;
}

/** dropped: a stand-in's, built and not sent (decision 042, amended by 018 on 2026-11-28). */
type Outcome = { kind: 'sent'; note: string } | { kind: 'dropped'; note: string } | { kind: 'retry' | 'failed'; error: string };

interface Sender {
  /** Run before each pass (the file sender tightens the folder's mode). */
  prepare(): Promise<void>;
  send(mail: Message, from: SendMailOptions['from']): Promise<Outcome>;
  close(): void;
}

/** What a sent or given-up row keeps of its content: nothing that could hold a link (decision 042). */
const ERASED = { params: null, text_body: '', html_body: '' } as const;

/** Reports from nodemailer carry these; see NodemailerError in its errors.d.ts. */
interface SmtpError {
  code?: string;
  originalCode?: string;
  responseCode?: number;
  permanent?: boolean;
  command?: string;
  timeoutType?: string;
}

/** Errors that happen before the server could have taken the message: safe to try again. */
const UNREACHED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

export function classifySmtpError(error: unknown): Outcome {
  const e = (error ?? {}) as SmtpError;
  const what = [e.code, e.responseCode, e.command].filter((part) => part !== undefined).join(' ') || 'error';
  if (typeof e.responseCode === 'number') {
    // The server answered no: it did not take the message. 5xx (but 503) will be answered again.
    const permanent = e.permanent ?? (e.responseCode >= 500 && e.responseCode !== 503);
    return { kind: permanent ? 'failed' : 'retry', error: `refused: ${what}` };
  }
  const beforeMessage =
    UNREACHED.has(e.originalCode ?? '') ||
    UNREACHED.has(e.code ?? '') ||
    e.code === 'EDNS' ||
    e.code === 'EAUTH' ||
    e.code === 'ETLS' ||
    e.timeoutType === 'CONNECT_TIMEOUT' ||
    e.timeoutType === 'GREETING_TIMEOUT';
  if (beforeMessage) return { kind: 'retry', error: `unreachable: ${what}` };
  return { kind: 'failed', error: `outcome unknown, not retried (at most once): ${what}` };
}

/**
 * nodemailer is loaded with the first mail, not at start: ~5 MB of heap a portal that sends no
 * mail for hours need not hold (docs/decisions/058).
 */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]) {
  let transport: Promise<Transporter> | undefined;
  let opened: Transporter | undefined;
  return {
    get: () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) => {
        opened = nodemailer.createTransport(options);
        return opened;
      })),
    close: () => opened?.close(),
  };
}

function smtpSender(smtpUrl: string): Sender {
  const transport = lazyTransport({
    url: smtpUrl,
    // Bounded, so a send always ends well within the lease.
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
  });
  return {
    prepare: async () => {},
    async send(mail, from) {
      try {
        const info = await (await transport.get()).sendMail(message(mail, from));
        return { kind: 'sent', note: `smtp: ${String(info.response ?? '').slice(0, 200)}` };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close: () => transport.close(),
  };
}

/** Owner only, as the signing keys (catalog/signing-key.ts): a delivered .eml holds its links. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

function fileSender({ outboxDir, linksInLog }: Config['mail'], log: MailLog): Sender {
  const transport = lazyTransport({ streamTransport: true, buffer: true });
  // Absolute, so the delivery note names the file wherever the listing runs from.
  const folder = resolve(outboxDir);
  let prepared: Promise<void> | undefined;
  /** Creates the folder 0700, and brings one an earlier version made (0755) to 0700. */
  const ensureFolder = async () => {
    await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
    // A folder that is not ours to change stays as it is: the file itself is 0600.
    await chmod(folder, FOLDER_MODE).catch(() => {});
  };
  return {
    // Once per worker: a folder an earlier version left 0755 is closed before anything else.
    prepare: () =>
      (prepared ??= chmod(folder, FOLDER_MODE).catch(() => {
        // Not there yet (the first mail creates it 0700), or not ours to change: each write
        // tries again and reports its own error.
      })),
    async send(mail, from) {
      try {
        const info = await (await transport.get()).sendMail(message(mail, from));
        await ensureFolder();
        const stamp = mail.createdAt.replace(/[^0-9]/g, '').slice(0, 14);
        const path = join(folder, `${stamp}-${mail.template}-${mail.id}.eml`);
        await writeFile(path, info.message as Buffer, { mode: FILE_MODE });
        // Development only (no SMTP_URL, NODE_ENV not production): the link is a secret, shown so
        // that a newcomer can finish every flow on their own machine. With SMTP, or in production,
        // no link is ever logged: a log is read by more people, and kept longer, than the outbox (decision 072).
        const link = mail.linkInLog ? linksIn(mail.text)[0] : undefined;
        log.info(
          linksInLog
            ? `mail ${mail.template} to ${mail.to}: ${link ?? mail.subject} (written to ${path})`
            : `mail ${mail.template} written to ${path}`,
        );
        return { kind: 'sent', note: `file: ${path}` };
      } catch (error) {
        return { kind: 'retry', error: `could not write the .eml: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
      }
    },
    close: () => transport.close(),
  };
}

function message(mail: Message, from: SendMailOptions['from']): SendMailOptions {
  return {
    from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    date: new Date(mail.createdAt),
  };
}

/**
 * The row rendered now (its params), or as it was stored when queued (a row written before
 * migration 018); undefined when it cannot be rendered now.
 */
async function messageOf(db: Db, row: Row): Promise<Message | undefined> {
  const envelope = {
    id: row.id,
    template: row.template,
    to: row.to_address,
    replyTo: row.reply_to,
    messageId: row.message_id,
    createdAt: row.created_at,
    linkInLog: row.client_id !== null,
  };
  if (row.params === null) return { ...envelope, subject: row.subject, text: row.text_body, html: row.html_body };
  try {
    const rendered = await composeQueuedMail(db, { ...row, params: row.params });
    return { ...envelope, subject: oneLineSubject(rendered.subject), text: rendered.text, html: rendered.html };
  } catch {
    return undefined;
  }
}

/** MAIL_FROM as given when it names a sender, else the client's name over its address. */
function sender(configured: string, clientName: string | undefined): SendMailOptions['from'] {
  if (configured.includes('<') || !clientName) return configured;
  return { name: clientName, address: configured };
}

export interface MailDeliveryPass {
  /** Runs one pass now: claims due rows and delivers them; resolves with how many were handled. */
  deliverDue(): Promise<number>;
  close(): void;
}

export function createMailDelivery(options: MailDeliveryOptions): MailDeliveryPass {
  const { db, mail, log } = options;
  const now = options.now ?? (() => new Date());
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const transport = mail.smtpUrl ? smtpSender(mail.smtpUrl) : fileSender(mail, log);
  // Builds stand-ins' messages as the transports build a mail's, and sends them nowhere.
  const standInBuilder = lazyTransport({ streamTransport: true, buffer: true });

  async function clientName(clientId: string | null): Promise<string | undefined> {
    if (clientId === null) return CONSOLE_SENDER_NAME;
    return (await findClient(db, clientId))?.name;
  }

  /**
   * A stand-in (a request that matched nobody, decisions 042, 018) gets a mail's work up to its
   * delivery: claimed and rendered like one (by the caller), its message built as the transport
   * builds one, then marked by the same update as a sent mail (status dropped). So the pass after
   * a miss runs what a match's runs and writes the same rows; only the delivery itself (the SMTP
   * conversation, or the .eml written and its log line) is left out.
   */
  async function buildStandIn(row: Row, rendered: Message | undefined): Promise<Outcome> {
    if (rendered) {
      const from = sender(mail.from, await clientName(row.client_id));
      await (await standInBuilder.get()).sendMail(message({ ...rendered, to: STAND_IN_RECIPIENT }, from));
    }
    return { kind: 'dropped', note: 'not sent: a stand-in' };
  }

  async function deliverDue(): Promise<number> {
    const started = now();
    const at = started.toISOString();
    // Stand-ins dropped a day ago go, in bulk; one whose worker died while building it goes at
    // once (it never was a mail, and must not count as a failed one).
    await db
      .deleteFrom('mail_outbox')
      .where('template', '=', NO_MAIL_TEMPLATE)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'dropped'), eb('next_attempt_at', '<', new Date(started.getTime() - STAND_IN_KEPT_MS).toISOString())]),
          eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', at)]),
        ]),
      )
      .execute();
    // A lease that ran out means a worker died while sending: the server may have the mail, so
    // it is not sent again (at most once).
    await db
      .updateTable('mail_outbox')
      .set({ status: 'failed', claimed_until: null, last_error: 'interrupted while sending; not retried (at most once)', ...ERASED })
      .where('status', '=', 'sending')
      .where('claimed_until', '<', at)
      .execute();
    await transport.prepare();

    const due = await db
      .selectFrom('mail_outbox')
      .select(ROW_COLUMNS)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();

    let handled = 0;
    for (const row of due) {
      const claimedAt = now();
      const claim = await db
        .updateTable('mail_outbox')
        .set({ status: 'sending', claimed_until: new Date(claimedAt.getTime() + leaseMs).toISOString(), attempts: row.attempts + 1 })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .where('attempts', '=', row.attempts)
        .executeTakeFirst();
      // Another worker claimed it between the look and the claim.
      if (Number(claim.numUpdatedRows) !== 1) continue;

      const attempts = row.attempts + 1;
      const rendered = await messageOf(db, row);
      // A stand-in is not a mail: not counted, and dropped whether or not it could be rendered.
      const standIn = row.template === NO_MAIL_TEMPLATE;
      if (!standIn) handled += 1;
      // Nothing was sent: safe to try again (the client's texts may be readable later).
      const outcome: Outcome = standIn
        ? await buildStandIn(row, rendered)
        : rendered
          ? await transport.send(rendered, sender(mail.from, await clientName(row.client_id)))
          : { kind: 'retry', error: 'could not render the mail' };
      const finishedAt = now();
      // The subject stays for the listings; it never holds a link.
      const subject = rendered ? { subject: rendered.subject } : {};
      if (outcome.kind === 'sent' || outcome.kind === 'dropped') {
        await db
          .updateTable('mail_outbox')
          .set({
            status: outcome.kind,
            sent_at: finishedAt.toISOString(),
            claimed_until: null,
            last_error: null,
            delivery_note: outcome.note,
            ...subject,
            ...ERASED,
          })
          .where('id', '=', row.id)
          .where('status', '=', 'sending')
          .execute();
        continue;
      }
      const giveUp = outcome.kind === 'failed' || attempts >= mail.maxAttempts;
      await db
        .updateTable('mail_outbox')
        .set({
          status: giveUp ? 'failed' : 'pending',
          claimed_until: null,
          last_error: outcome.error.slice(0, 300),
          next_attempt_at: giveUp ? finishedAt.toISOString() : new Date(finishedAt.getTime() + backoffMs(attempts)).toISOString(),
          ...subject,
          // Kept while it may be tried again: the next attempt renders it from them.
          ...(giveUp ? ERASED : {}),
        })
        .where('id', '=', row.id)
        .where('status', '=', 'sending')
        .execute();
      // Names the mail, never its link: with SMTP the link must not reach the log.
      log.warn(`mail ${row.template} ${row.id} attempt ${attempts} ${giveUp ? 'failed for good' : 'will be retried'}: ${outcome.error}`);
    }
    return handled;
  }

  return {
    deliverDue,
    close: () => {
      transport.close();
      standInBuilder.close();
    },
  };
}

export interface MailDelivery {
  /** Stops polling, waits for the pass under way, closes the transport. Call before the db closes. */
  stop(): Promise<void>;
  /** Resolves when the pass under way (if any) has finished; for tests. */
  idle(): Promise<void>;
}

/**
 * Starts the delivery worker of this process: a pass at start, after every queued mail (a
 * wake-up signal) and every few seconds. Its timers never keep the process alive.
 */
export function startMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const pass = createMailDelivery(options);
  const loop = startWakeLoop({
    pass: async () => {
      await pass.deliverDue();
    },
    subscribe: onMailQueued,
    pollMs: options.pollMs ?? 5_000,
    // The database may be briefly away; the next poll tries again.
    // Only the error's code: a database message may quote values (addresses, links).
    onError: (error) =>
      options.log.warn(`mail delivery pass failed (${(error as NodeJS.ErrnoException).code ?? 'error'}); retrying at the next poll`),
  });
  return {
    async stop() {
      await loop.stop();
      pass.close();
    },
    idle: loop.idle,
  };
}
