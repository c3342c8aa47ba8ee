import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '@rewards/contract';
import { loadConfig } from '../../config.ts';
import { dialects } from '../../../test/databases.ts';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { OTHER_CLIENT_ID, OTHER_PASSWORD } from '../../../test/other-client.ts';
import { createSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { createMailDelivery } from '../mail/delivery.ts';

const DESK = 'support@acme.example';

interface ListedMessage {
  id: string;
  username: string;
  subject: string;
  message: string;
  replyEmail: string | null;
  mail: { id: string; status: string; to: string } | null;
}

describe.each(dialects)('contact messages reach the support desk on %s', (dialect) => {
  let t: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    sink = await createSmtpSink();
    await sink.up();
    await t.database.db.updateTable('clients').set({ support_email: DESK }).where('id', '=', 'acme').execute();
  });
  afterAll(async () => {
    await sink.down();
    await t.close();
  });
  beforeEach(() => {
    sink.received.length = 0;
  });

  const valid = {
    topic: 'order',
    subject: 'Where is my order?',
    message: 'I ordered headphones on 2 May.\nNothing arrived yet.',
    replyEmail: 'dana@example.com',
    phone: '+1 555 010 0200',
  };
  const send = (body: unknown, session: string, origin?: string) => t.api('POST', apiPaths.contactUs, { body, session, origin });
  const outbox = () => t.database.db.selectFrom('mail_outbox').selectAll().orderBy('created_at').execute();
  /** One delivery pass through the real SMTP server, as the worker of main.ts does it. */
  async function deliver() {
    const delivery = createMailDelivery({
      db: t.database.db,
      mail: { ...loadConfig({}).mail, smtpUrl: sink.url },
      log: { info: () => {}, warn: () => {} },
    });
    try {
      return await delivery.deliverDue();
    } finally {
      delivery.close();
    }
  }

  it('mails the desk: To the support address, Reply-To the participant, the program and subject in the subject, who and when in the body', async () => {
    const { sessionId, userId, accountNumber } = await t.login('demo');
    const hostile = `${valid.message}\n<script>alert(1)</script> <b onclick="x()">bold</b> & "quotes"`;
    const reply = await send({ ...valid, message: hostile }, sessionId);
    // The participant's reply is what it always was.
    expect(reply.statusCode).toBe(200);
    const { requestId } = reply.json<{ requestId: string; status: string }>();
    expect(reply.json()).toEqual({ requestId, status: 'new' });

    const stored = await t.database.db.selectFrom('contact_requests').selectAll().where('id', '=', requestId).executeTakeFirstOrThrow();
    const [row] = await outbox();
    expect(stored.mail_id).toBe(row?.id);
    expect(row).toMatchObject({
      client_id: 'acme',
      participant_id: userId,
      to_address: DESK,
      reply_to: 'dana@example.com',
      template: 'contactMessage',
      status: 'pending',
    });

    expect(await deliver()).toBe(1);
    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail?.to).toEqual([DESK]);
    expect(mail?.headers.to).toBe(DESK);
    expect(mail?.headers['reply-to']).toBe('dana@example.com');
    expect(mail?.headers.from).toContain('Acme Rewards');
    expect(mail?.subject).toBe('[Acme Rewards] An order or a redemption: Where is my order?');

    const text = mail?.text ?? '';
    expect(text).toContain('From: Dana Demo');
    expect(text).toContain('Username: demo');
    expect(text).toContain(`Participant id: ${userId}`);
    expect(text).toContain(`Account number: ${accountNumber}`);
    expect(text).toContain('Language: en-US');
    expect(text).toContain('Phone: +1 555 010 0200');
    expect(text).toContain(`Sent: ${stored.created_at.slice(0, 10)} ${stored.created_at.slice(11, 19)} UTC`);
    expect(text).toContain(`Reference: ${requestId}`);
    expect(text).toContain('I ordered headphones on 2 May.\nNothing arrived yet.\n<script>alert(1)</script>');
    expect(text).toContain('answers the participant at dana@example.com');

    // In the HTML part everything the participant wrote is text, never markup.
    const html = mail?.html ?? '';
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<b onclick/i);
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;',
    );
    expect(html).toContain('I ordered headphones on 2 May.<br>');
    expect((await outbox())[0]?.status).toBe('sent');
  });

  it('answers to the account’s address when no reply address is given, and marks a message sent by an administrator', async () => {
    const { sessionId } = await t.login('newbie');
    await t.database.db
      .updateTable('sessions')
      .set({ admin_as_user: 1 })
      .where(
        'participant_id',
        '=',
        (await t.database.db.selectFrom('participants').select('id').where('username', '=', 'newbie').executeTakeFirstOrThrow()).id,
      )
      .execute();
    expect((await send({ topic: 'points', subject: 'Balance', message: 'Is it right?' }, sessionId)).statusCode).toBe(200);
    await deliver();
    const [mail] = sink.received;
    expect(mail?.headers['reply-to']).toBe('newbie@example.com');
    expect(mail?.subject).toBe('[Acme Rewards] Points and balance: Balance');
    expect(mail?.text).toContain('Reply e-mail given: none');
    expect(mail?.text).toContain('An administrator acting as this participant sent this message on their behalf.');
  });

  it('keeps a subject with line breaks on one line: no header can be added, no one else gets the mail', async () => {
    const { sessionId } = await t.login('spent');
    const subject = 'Help\r\nBcc: victim@evil.example\r\nX-Injected: yes\nContent-Type: text/html';
    expect((await send({ ...valid, subject, replyEmail: '' }, sessionId)).statusCode).toBe(200);
    const stored = await t.database.db
      .selectFrom('contact_requests')
      .select('subject')
      .where('username', '=', 'spent')
      .executeTakeFirstOrThrow();
    expect(stored.subject).toBe('Help Bcc: victim@evil.example X-Injected: yes Content-Type: text/html');

    // Even a row that carried line breaks past us (written by hand here, as a row rendered when
    // queued before migration 018 is sent as stored) is sent as one header line: nodemailer
    // folds CR and LF of a subject into spaces.
    await t.database.db
      .insertInto('mail_outbox')
      .values({
        ...(await outbox()).at(-1)!,
        id: 'raw-row',
        params: null,
        subject: 'Raw\r\nBcc: victim@evil.example\r\nX-Injected: yes',
        text_body: 'Raw',
        html_body: '<p>Raw</p>',
        message_id: '<raw-row@acme>',
      })
      .execute();

    expect(await deliver()).toBe(2);
    expect(sink.received).toHaveLength(2);
    for (const mail of sink.received) {
      expect(mail.to).toEqual([DESK]);
      expect(mail.headers.bcc).toBeUndefined();
      expect(mail.headers['x-injected']).toBeUndefined();
      const head = mail.raw.slice(0, mail.raw.indexOf('\n\n'));
      expect(head).not.toMatch(/^(Bcc|X-Injected|Content-Type: text\/html)/im);
      expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);
    }
    expect(sink.received.map((m) => m.subject).sort()).toEqual([
      'Raw Bcc: victim@evil.example X-Injected: yes',
      '[Acme Rewards] An order or a redemption: Help Bcc: victim@evil.example X-Injected: yes Content-Type: text/html',
    ]);
    await t.database.db.deleteFrom('mail_outbox').where('id', '=', 'raw-row').execute();
  });

  it('stores without mailing for a client without a support address, and the operator lists it', async () => {
    const gina = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    const before = (await outbox()).length;
    const reply = await send({ ...valid, subject: 'Bonjour' }, gina.sessionId, OTHER_ORIGIN);
    expect(reply.statusCode).toBe(200);
    expect(await outbox()).toHaveLength(before);
    const stored = await t.database.db.selectFrom('contact_requests').selectAll().where('client_id', '=', OTHER_CLIENT_ID).execute();
    expect(stored.map((r) => [r.subject, r.mail_id])).toEqual([['Bonjour', null]]);

    const globex = await rewardsJson<ListedMessage[]>(t.database, ['contact', 'list', '--client', OTHER_CLIENT_ID, '--json']);
    expect(globex).toMatchObject([
      { id: reply.json<{ requestId: string }>().requestId, username: 'demo', subject: 'Bonjour', message: valid.message, mail: null },
    ]);
    const human = await runRewards(t.database, ['contact', 'list', '--client', OTHER_CLIENT_ID]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('No support address');
    expect(human.stdout).toContain('not mailed');

    // Acme's messages went out; the listing says so, newest first, and --since/--limit narrow it.
    const acme = await rewardsJson<ListedMessage[]>(t.database, ['contact', 'list', '--client', 'acme', '--limit', '2', '--json']);
    expect(acme.map((m) => [m.username, m.mail?.status, m.mail?.to])).toEqual([
      ['spent', 'sent', DESK],
      ['newbie', 'sent', DESK],
    ]);
    expect(
      await rewardsJson<ListedMessage[]>(t.database, ['contact', 'list', '--client', 'acme', '--since', '2999-01-01', '--json']),
    ).toEqual([]);
    const bad = await runRewards(t.database, ['contact', 'list', '--client', 'nobody']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('Unknown client "nobody"')]);
  }, 60_000); // four runs of the rewards command

  it('queues nothing for an invalid or a throttled message', async () => {
    const { sessionId } = await t.login('merch');
    const before = (await outbox()).length;
    expect((await send({ ...valid, replyEmail: 'not-an-address' }, sessionId)).statusCode).toBe(400);
    expect((await send({ ...valid, subject: 'x'.repeat(121) }, sessionId)).statusCode).toBe(400);
    for (let i = 0; i < 5; i++) expect((await send(valid, sessionId)).statusCode).toBe(200);
    expect(await outbox()).toHaveLength(before + 5);
    expect((await send(valid, sessionId)).statusCode).toBe(429);
    expect(await outbox()).toHaveLength(before + 5);
  });
});
