// Issue 16, decision 042: a reset link lives in the outbox only until its mail is delivered or
// given up; then the delivered mail (the SMTP server's copy, or the .eml of the embedded default,
// owner-only) is the one place it is. And a request that matched nobody writes the outbox row a
// match writes, which the worker drops unsent.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config.ts';
import { dialects } from '../../../test/databases.ts';
import { createSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createMailDelivery } from './delivery.ts';
import { parseEml } from './eml.ts';
import { listOutbox } from './listing.ts';
import { NO_MAIL_TEMPLATE } from './outbox.ts';

const RESET_LINK = /https?:\/\/\S+\/reset-password\?passwordGuid=([A-Za-z0-9_-]{43})/;
const silent = { info: () => {}, warn: () => {} };

describe.each(dialects)('mail at rest on %s', (dialect) => {
  let t: TestApp;
  let sink: SmtpSink;
  const folders: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    sink = await createSmtpSink();
  });
  afterAll(async () => {
    await sink.down();
    await t.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('mail_outbox').execute();
    sink.received.length = 0;
    sink.mode = 'accept';
  });

  const post = (path: string, body: unknown) => t.api('POST', path, { body });
  const outbox = () => t.database.db.selectFrom('mail_outbox').selectAll().orderBy('created_at').execute();

  /** One delivery pass, as the worker of main.ts makes it. */
  async function deliver(mail: Partial<Config['mail']>): Promise<number> {
    const delivery = createMailDelivery({ db: t.database.db, mail: { ...loadConfig({}).mail, ...mail }, log: silent });
    try {
      return await delivery.deliverDue();
    } finally {
      delivery.close();
    }
  }

  /** Every table of the database whose rows (any column) contain `needle`. */
  async function tablesHolding(needle: string): Promise<string[]> {
    const db = t.database.db;
    const names =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
          ).rows.map((r) => r.name);
    const holding: string[] = [];
    for (const name of names) {
      const { rows } = await sql`select * from ${sql.table(name)}`.execute(db);
      if (JSON.stringify(rows).includes(needle)) holding.push(name);
    }
    return holding;
  }

  /** Asks for a reset link for a participant; resolves with its token, read from the queued row. */
  async function askForReset(username: string): Promise<string> {
    const reply = await post('/forgotPassword', { userName: username, emailAddress: `${username}@example.com` });
    expect(reply.statusCode).toBe(200);
    const [row] = await outbox();
    const token = RESET_LINK.exec(row?.params ?? '')?.[1];
    if (!token) throw new Error(`no reset link queued for ${username}`);
    // Before delivery the queued row is where the link waits (the scan can find it).
    expect(await tablesHolding(token)).toEqual(['mail_outbox']);
    return token;
  }

  it('keeps no reset link in the database once its mail went out over SMTP; the listing keeps who, what and when', async () => {
    await sink.up();
    try {
      const token = await askForReset('demo');
      expect(await deliver({ smtpUrl: sink.url })).toBe(1);

      expect(sink.received).toHaveLength(1);
      expect(RESET_LINK.exec(sink.received[0]?.text ?? '')?.[1]).toBe(token);
      expect(await tablesHolding(token)).toEqual([]);

      const [row] = await outbox();
      expect(row).toMatchObject({
        to_address: 'demo@example.com',
        template: 'resetPassword',
        status: 'sent',
        subject: 'Reset your Acme Rewards password',
        params: null,
        text_body: '',
        html_body: '',
      });
      expect(row?.sent_at).toEqual(expect.any(String));
      const [listed] = await listOutbox(t.database.db, { limit: 5 });
      expect(listed).toMatchObject({
        to: 'demo@example.com',
        template: 'resetPassword',
        status: 'sent',
        subject: 'Reset your Acme Rewards password',
        text: '',
        links: [],
      });
    } finally {
      await sink.down();
    }
  });

  it('erases the link of a mail given up for good too', async () => {
    await sink.up();
    sink.mode = 'permfail';
    try {
      const token = await askForReset('newbie');
      await deliver({ smtpUrl: sink.url });
      expect(await outbox()).toMatchObject([{ status: 'failed', params: null, text_body: '', html_body: '' }]);
      expect(sink.received).toEqual([]);
      expect(await tablesHolding(token)).toEqual([]);
    } finally {
      await sink.down();
    }
  });

  it('keeps the link while the mail may still be tried again', async () => {
    // Nobody listens: unreachable, retried later.
    const token = await askForReset('spent');
    await deliver({ smtpUrl: sink.url });
    expect(await outbox()).toMatchObject([{ status: 'pending', attempts: 1 }]);
    expect(await tablesHolding(token)).toEqual(['mail_outbox']);
  });

  it('without SMTP writes the .eml 0600 in a 0700 folder (closing one left 0755), and it is the only copy of the link', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rewards-at-rest-'));
    folders.push(dataDir);
    const outboxDir = join(dataDir, 'outbox');
    // As an earlier version left it: world-readable, with an earlier mail in it.
    mkdirSync(outboxDir);
    chmodSync(outboxDir, 0o755);
    writeFileSync(join(outboxDir, 'earlier.eml'), 'Subject: earlier\n\nhello\n');

    const token = await askForReset('merch');
    expect(await deliver({ smtpUrl: undefined, outboxDir })).toBe(1);

    expect(statSync(outboxDir).mode & 0o777).toBe(0o700);
    const written = readdirSync(outboxDir).filter((name) => name !== 'earlier.eml');
    expect(written).toHaveLength(1);
    const eml = join(outboxDir, written[0] ?? '');
    expect(statSync(eml).mode & 0o777).toBe(0o600);
    expect(RESET_LINK.exec(parseEml(readFileSync(eml, 'utf8')).text)?.[1]).toBe(token);

    expect(await tablesHolding(token)).toEqual([]);
    const others = readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
      .map((name) => join(dataDir, name))
      .filter((path) => path !== eml && statSync(path).isFile());
    for (const path of others) expect(readFileSync(path, 'utf8'), path).not.toContain(token);

    // The operator's listing reads what was sent back from the .eml.
    const [listed] = await listOutbox(t.database.db, { limit: 5 });
    expect(listed).toMatchObject({ to: 'merch@example.com', template: 'resetPassword', status: 'sent' });
    expect(RESET_LINK.exec(listed?.links[0] ?? '')?.[1]).toBe(token);
  });

  it('on a miss writes the one outbox row a match writes, which the worker builds, drops unsent and no listing shows', async () => {
    await sink.up();
    try {
      expect((await post('/forgotUsername', { emailAddress: 'nobody@example.com' })).statusCode).toBe(200);
      expect((await post('/forgotPassword', { userName: 'nobody', emailAddress: 'nobody@example.com' })).statusCode).toBe(200);
      expect(await outbox()).toMatchObject([
        { template: NO_MAIL_TEMPLATE, to_address: '', status: 'pending' },
        { template: NO_MAIL_TEMPLATE, to_address: '', status: 'pending' },
      ]);
      expect(await listOutbox(t.database.db, { limit: 5 })).toEqual([]);

      // A match writes one row too.
      expect((await post('/forgotUsername', { emailAddress: 'inactive@example.com' })).statusCode).toBe(200);
      expect((await outbox()).map((row) => row.template)).toEqual([NO_MAIL_TEMPLATE, NO_MAIL_TEMPLATE, 'forgotUsername']);

      expect(await deliver({ smtpUrl: sink.url })).toBe(1);
      expect(sink.received.map((mail) => mail.to)).toEqual([['inactive@example.com']]);
      // The stand-ins are kept a day as dropped, holding nothing (decision 018, amended 2026-11-28).
      expect(await outbox()).toMatchObject([
        { template: NO_MAIL_TEMPLATE, status: 'dropped', params: null },
        { template: NO_MAIL_TEMPLATE, status: 'dropped', params: null },
        { template: 'forgotUsername', status: 'sent' },
      ]);
      expect(await listOutbox(t.database.db, { limit: 5 })).toMatchObject([{ template: 'forgotUsername', status: 'sent' }]);
    } finally {
      await sink.down();
    }
  });
});
