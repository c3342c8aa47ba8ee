import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID, seedOtherClient } from '../../../test/other-client.ts';
import { createSmtpSink } from '../../../test/smtp-sink.ts';
import { composeQueuedMail } from './compose.ts';
import { createMailDelivery } from './delivery.ts';
import { queueMail, type OutgoingMail } from './outbox.ts';

describe.each(dialects)('mail templates on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await seedDemo(db);
    await seedOtherClient(db);
    for (const p of await db.selectFrom('participants').select(['id', 'username', 'client_id']).where('client_id', '=', 'acme').execute())
      ids.set(p.username, p.id);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom('mail_outbox').execute();
    await db.deleteFrom('translations').where('key', 'like', 'mail.%').execute();
  });

  /**
   * Queues one mail in its own transaction and reads back the row, with the subject, text and
   * HTML the delivery worker renders from it (decision 042; in a transaction, which reads the
   * client's texts past the process's cache, as the wording tests need).
   */
  async function queued(mail: OutgoingMail) {
    await db.transaction().execute((trx) => queueMail(trx, mail));
    const row = await db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const rendered = await db.transaction().execute((trx) => composeQueuedMail(trx, { ...row, params: row.params ?? '' }));
    return { ...row, subject: rendered.subject, text_body: rendered.text, html_body: rendered.html };
  }

  it('writes the reset mail in French, greeting the participant, branded with the client name and logo', async () => {
    const row = await queued({
      clientId: 'acme',
      participantId: ids.get('demo'),
      to: 'demo@example.com',
      locale: 'fr-FR',
      template: 'resetPassword',
      params: { link: 'http://localhost:3000/reset-password?passwordGuid=xyz', minutes: '45' },
    });
    expect(row.subject).toBe('Réinitialisez votre mot de passe Acme Rewards');
    expect(row.text_body).toContain('Bonjour Dana,');
    expect(row.text_body).toContain('expire dans 45 minutes');
    expect(row.text_body).toContain('http://localhost:3000/reset-password?passwordGuid=xyz');
    expect(row.html_body).toContain('<html lang="fr-FR" dir="ltr">');
    expect(row.html_body).toContain('<img src="http://localhost:3000/brand/acme/logo.svg" alt=""');
    expect(row.html_body).toContain('>Acme Rewards</span>');
    expect(row.html_body).toContain('Choisir un nouveau mot de passe');
    expect(row.html_body).toContain('background:#1d4ed8');
    expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 0,
      locale: 'fr-FR',
      template: 'resetPassword',
      participant_id: ids.get('demo'),
    });
  });

  it('writes Arabic right to left, and the SMTP server receives it so', async () => {
    const sink = await createSmtpSink();
    await sink.up();
    try {
      const row = await queued({
        clientId: 'acme',
        to: 'merch@example.com',
        locale: 'ar',
        template: 'forgotUsername',
        params: { usernames: 'merch', link: 'http://localhost:3000/login' },
      });
      expect(row.subject).toBe('اسم المستخدم الخاص بك في Acme Rewards');
      expect(row.html_body).toContain('<html lang="ar" dir="rtl">');
      expect(row.html_body).toContain('text-align:right');
      expect(row.html_body).not.toContain('text-align:left');
      expect(row.text_body).toContain('اسم المستخدم: merch');

      const delivery = createMailDelivery({
        db,
        mail: { ...loadConfig({}).mail, smtpUrl: sink.url },
        log: { info: () => {}, warn: () => {} },
      });
      await delivery.deliverDue();
      delivery.close();
      expect(sink.received).toHaveLength(1);
      expect(sink.received[0]?.subject).toBe('اسم المستخدم الخاص بك في Acme Rewards');
      expect(sink.received[0]?.html).toContain('dir="rtl"');
      expect(sink.received[0]?.text).toContain('اسم المستخدم: merch');
    } finally {
      await sink.down();
    }
  });

  it.each([
    ['activated', 'Welcome to Acme Rewards', 'Your account is now active.'],
    ['passwordChanged', 'Your Acme Rewards password was changed', 'was just changed'],
  ] as const)('writes the %s notice in English', async (template, subject, sentence) => {
    const row = await queued({
      clientId: 'acme',
      participantId: ids.get('newbie'),
      to: 'newbie@example.com',
      locale: 'en-US',
      template,
      params: { link: 'http://localhost:3000/' },
    });
    expect(row.subject).toBe(subject);
    expect(row.text_body).toContain('Hello Nina,');
    expect(row.text_body).toContain(sentence);
    expect(row.text_body).toContain('http://localhost:3000/');
  });

  it("uses the client's own wording for a mail when it has one in its translations", async () => {
    await db
      .insertInto('translations')
      .values({ client_id: 'acme', locale: 'en-US', key: 'mail.resetPassword.subject', text: '{clientName}: your new password link' })
      .execute();
    const row = await queued({
      clientId: 'acme',
      to: 'demo@example.com',
      locale: 'en-US',
      template: 'resetPassword',
      params: { link: 'http://localhost:3000/reset-password?passwordGuid=a', minutes: '60' },
    });
    expect(row.subject).toBe('Acme Rewards: your new password link');
  });

  it("brands another client's mail with its own name, colour and origin", async () => {
    const row = await queued({
      clientId: OTHER_CLIENT_ID,
      to: 'demo@globex.example',
      locale: 'fr-FR',
      template: 'forgotUsername',
      params: { usernames: 'demo', link: 'https://rewards.globex.example/login' },
    });
    expect(row.subject).toBe('Votre identifiant Globex Loyalty');
    expect(row.html_body).toContain('src="https://rewards.globex.example/brand/globex/logo.svg"');
    expect(row.html_body).toContain('#047857');
    expect(row.html_body).not.toContain('Acme');
    expect(row.message_id).toMatch(/@rewards\.globex\.example>$/);
  });

  it('escapes every value in the HTML part and keeps it as given in the text part', async () => {
    const row = await queued({
      clientId: 'acme',
      to: 'demo@example.com',
      locale: 'en-US',
      template: 'forgotUsername',
      params: { usernames: '<b>dana</b> & "co"', name: '<script>x</script>' },
    });
    expect(row.html_body).toContain('&lt;b&gt;dana&lt;/b&gt; &amp; &quot;co&quot;');
    expect(row.html_body).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(row.html_body).not.toContain('<script>');
    expect(row.text_body).toContain('Your username: <b>dana</b> & "co"');
  });

  it('refuses a relative link or a missing param, and so rolls the change back', async () => {
    await expect(
      db.transaction().execute((trx) =>
        queueMail(trx, {
          clientId: 'acme',
          to: 'demo@example.com',
          locale: 'en-US',
          template: 'resetPassword',
          params: { link: '/reset-password?passwordGuid=a', minutes: '60' },
        }),
      ),
    ).rejects.toThrow('absolute');
    await expect(
      db.transaction().execute((trx) =>
        queueMail(trx, {
          clientId: 'acme',
          to: 'demo@example.com',
          locale: 'en-US',
          template: 'resetPassword',
          params: { link: 'http://localhost:3000/x' },
        }),
      ),
    ).rejects.toThrow('minutes');
    expect(await db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  });
});
