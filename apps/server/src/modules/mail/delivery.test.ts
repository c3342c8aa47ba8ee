import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { createSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { createMailDelivery, startMailDelivery, type MailLog } from './delivery.ts';
import { queueMail, type OutgoingMail } from './outbox.ts';

const RESET_LINK = 'http://localhost:3000/reset-password?passwordGuid=abc123';

function resetMail(to = 'demo@example.com'): OutgoingMail {
  return { clientId: 'acme', to, locale: 'en-US', template: 'resetPassword', params: { link: RESET_LINK, minutes: '60' } };
}

function mailConfig(overrides: Partial<Config['mail']>): Config['mail'] {
  return { ...loadConfig({}).mail, ...overrides };
}

/** A clock the test moves by hand: backoff is real, waiting is not. */
// Later than any real "now" a mail is queued at, so what is queued is due on this clock.
function manualClock(start = new Date('2099-01-01T09:00:00.000Z')) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

function collectingLog(): MailLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(m) };
}

describe.each(dialects)('mail delivery on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let sink: SmtpSink;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await seedDemo(db);
    sink = await createSmtpSink();
  });
  afterAll(async () => {
    await sink.down();
    await database.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom('mail_outbox').execute();
    sink.received.length = 0;
    sink.mode = 'accept';
  });
  afterEach(async () => {
    await sink.down();
  });

  async function queue(...mails: OutgoingMail[]) {
    await db.transaction().execute(async (trx) => {
      for (const mail of mails) await queueMail(trx, mail);
    });
  }

  const outbox = () => db.selectFrom('mail_outbox').selectAll().orderBy('created_at').execute();

  it('sends a mail queued in a committed transaction once, with its headers, text and html', async () => {
    await sink.up();
    await queue(resetMail());
    const delivery = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog() });

    expect(await delivery.deliverDue()).toBe(1);
    expect(await delivery.deliverDue()).toBe(0);
    delivery.close();

    expect(sink.received).toHaveLength(1);
    const [received] = sink.received;
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row?.delivery_note).toMatch(/^smtp: 250/);
    expect(received?.to).toEqual(['demo@example.com']);
    expect(received?.headers['message-id']).toBe(row?.message_id);
    expect(received?.headers.from).toContain('Acme Rewards');
    expect(received?.subject).toBe('Reset your Acme Rewards password');
    expect(received?.text).toContain(RESET_LINK);
    expect(received?.text).toContain('expires in 60 minutes');
    expect(received?.html).toContain('href="http://localhost:3000/reset-password?passwordGuid=abc123"');
    expect(received?.html).toContain('dir="ltr"');
  });

  it('queues nothing when the transaction that would send it rolls back', async () => {
    await sink.up();
    await expect(
      db.transaction().execute(async (trx) => {
        await queueMail(trx, resetMail());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const delivery = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog() });
    expect(await delivery.deliverDue()).toBe(0);
    delivery.close();
    expect(await outbox()).toEqual([]);
    expect(sink.received).toEqual([]);
  });

  it('retries with backoff while the server is down, then refusing, and delivers exactly once when it is back', async () => {
    const clock = manualClock();
    const log = collectingLog();
    const delivery = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log, now: clock.now });
    await queue(resetMail());

    // Nobody listens on the port.
    expect(await delivery.deliverDue()).toBe(1);
    let [row] = await outbox();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: '2099-01-01T09:00:30.000Z' });
    expect(row?.last_error).toMatch(/^unreachable/);

    // Not due before its time.
    clock.advance(29_000);
    expect(await delivery.deliverDue()).toBe(0);

    // Up, but answering "451 try again later".
    await sink.up();
    sink.mode = 'tempfail';
    clock.advance(1_000);
    expect(await delivery.deliverDue()).toBe(1);
    [row] = await outbox();
    expect(row).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: '2099-01-01T09:02:30.000Z' });
    expect(row?.last_error).toMatch(/^refused: .*451/);
    expect(sink.received).toEqual([]);

    sink.mode = 'accept';
    clock.advance(120_000);
    expect(await delivery.deliverDue()).toBe(1);
    clock.advance(3_600_000);
    expect(await delivery.deliverDue()).toBe(0);
    delivery.close();

    [row] = await outbox();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(sink.received).toHaveLength(1);
    // The log names the mail and why, never the link.
    expect(log.lines.join('\n')).not.toContain('passwordGuid');
  });

  it('gives up after the configured attempts, and at once on a permanent refusal', async () => {
    const clock = manualClock();
    const delivery = createMailDelivery({
      db,
      mail: mailConfig({ smtpUrl: sink.url, maxAttempts: 2 }),
      log: collectingLog(),
      now: clock.now,
    });
    await queue(resetMail());
    await delivery.deliverDue();
    clock.advance(30_000);
    await delivery.deliverDue();
    expect(await outbox()).toMatchObject([{ status: 'failed', attempts: 2 }]);

    await db.deleteFrom('mail_outbox').execute();
    await sink.up();
    sink.mode = 'permfail';
    await queue(resetMail('nobody@example.com'));
    await delivery.deliverDue();
    delivery.close();
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.last_error).toMatch(/^refused: .*550/);
  });

  it('survives a restart: a new worker over the same database sends what the old one could not', async () => {
    const clock = manualClock();
    const before = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog(), now: clock.now });
    await queue(resetMail());
    await before.deliverDue();
    before.close();

    await sink.up();
    clock.advance(60_000);
    const after = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog(), now: clock.now });
    expect(await after.deliverDue()).toBe(1);
    after.close();
    expect(sink.received).toHaveLength(1);
    expect(await outbox()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('never sends a mail twice when two workers over the same database run at once', async () => {
    await sink.up();
    await queue(...Array.from({ length: 8 }, (_, i) => resetMail(`user${i}@example.com`)));
    // On PostgreSQL the second worker has its own pool, as a second process would. An embedded
    // SQLite file is served by one process, whose workers share its one writer (decision 014):
    // a second writer connection in the same thread would wait on the first's open batch.
    const otherConnection = dialect === 'postgres' ? createDatabase(database.config) : db;
    const one = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog() });
    const two = createMailDelivery({ db: otherConnection, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog() });
    try {
      const handled = await Promise.all([one.deliverDue(), two.deliverDue(), one.deliverDue(), two.deliverDue()]);
      expect(handled.reduce((a, b) => a + b, 0)).toBe(8);
    } finally {
      one.close();
      two.close();
      if (otherConnection !== db) await otherConnection.destroy();
    }
    expect(sink.received).toHaveLength(8);
    expect(new Set(sink.received.map((m) => m.headers['message-id'])).size).toBe(8);
    expect((await outbox()).every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('tries a mail it cannot render again later, sends nothing, and gives it up after the configured attempts', async () => {
    await sink.up();
    const clock = manualClock();
    await queue(resetMail());
    // A row whose template this version does not know (written by hand).
    await db.updateTable('mail_outbox').set({ template: 'fromTheFuture' }).execute();
    const log = collectingLog();
    const delivery = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url, maxAttempts: 2 }), log, now: clock.now });
    expect(await delivery.deliverDue()).toBe(1);
    expect(await outbox()).toMatchObject([{ status: 'pending', attempts: 1, last_error: 'could not render the mail' }]);
    clock.advance(30_000);
    expect(await delivery.deliverDue()).toBe(1);
    delivery.close();
    expect(await outbox()).toMatchObject([{ status: 'failed', attempts: 2, params: null, text_body: '', html_body: '' }]);
    expect(sink.received).toEqual([]);
    expect(log.lines.join('\n')).not.toContain('passwordGuid');
  });

  it('does not send again a mail whose worker died while sending (at most once)', async () => {
    await sink.up();
    const clock = manualClock();
    await queue(resetMail());
    // A worker claimed it and died: the row is left "sending" with its lease.
    await db.updateTable('mail_outbox').set({ status: 'sending', attempts: 1, claimed_until: '2099-01-01T09:05:00.000Z' }).execute();
    const delivery = createMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog(), now: clock.now });
    expect(await delivery.deliverDue()).toBe(0);
    expect(await outbox()).toMatchObject([{ status: 'sending' }]);
    clock.advance(6 * 60_000);
    expect(await delivery.deliverDue()).toBe(0);
    delivery.close();
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'failed', claimed_until: null });
    expect(row?.last_error).toMatch(/interrupted/);
    expect(sink.received).toEqual([]);
  });

  it('started as the server starts it, delivers soon after the commit without anyone waiting for it', async () => {
    await sink.up();
    const delivery = startMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog(), pollMs: 60_000 });
    try {
      await queue(resetMail());
      // The wake-up after the commit, not the (one minute) poll, delivers it.
      await vi.waitFor(() => expect(sink.received).toHaveLength(1), { timeout: 5_000, interval: 50 });
    } finally {
      await delivery.stop();
    }
    expect(await outbox()).toMatchObject([{ status: 'sent' }]);
  });

  it('on stop, finishes the send under way before it resolves (the server stops it before closing the database)', async () => {
    await sink.up();
    await queue(resetMail());
    const delivery = startMailDelivery({ db, mail: mailConfig({ smtpUrl: sink.url }), log: collectingLog(), pollMs: 60_000 });
    await delivery.stop();
    expect(await outbox()).toMatchObject([{ status: 'sent', claimed_until: null }]);
    expect(sink.received).toHaveLength(1);
  });

  it('without SMTP_URL writes each mail as an .eml file and logs one line with its link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rewards-outbox-'));
    const log = collectingLog();
    const delivery = startMailDelivery({
      db,
      mail: mailConfig({ smtpUrl: undefined, outboxDir: join(dir, 'outbox') }),
      log,
      pollMs: 60_000,
    });
    try {
      await queue(resetMail());
      await vi.waitFor(async () => expect(await outbox()).toMatchObject([{ status: 'sent' }]), { timeout: 5_000, interval: 50 });
    } finally {
      await delivery.stop();
    }
    const files = readdirSync(join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    const path = join(dir, 'outbox', files[0] ?? '');
    const eml = readFileSync(path, 'utf8');
    expect(eml).toMatch(/^Subject: Reset your Acme Rewards password$/m);
    expect(eml).toMatch(/^To: demo@example.com$/m);
    expect(eml).toContain('multipart/alternative');
    const [row] = await outbox();
    expect(row?.delivery_note).toBe(`file: ${path}`);
    expect(log.lines).toEqual([`mail resetPassword to demo@example.com: ${RESET_LINK} (written to ${path})`]);
    rmSync(dir, { recursive: true, force: true });
  });
});
