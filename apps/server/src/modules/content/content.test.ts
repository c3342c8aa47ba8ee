import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, apiPaths, contentKeys, rulesKey, type ContentReply } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_CLIENT_ID, OTHER_PASSWORD } from '../../../test/other-client.ts';

const SALES = 'Sales Incentive 2026';
const SERVICE = 'Service Awards';

describe.each(dialects)('content pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const read = (key: string, options: { session?: string; origin?: string; query?: string } = {}) =>
    t.api('GET', apiPaths.contentKey(key) + (options.query ?? ''), options);
  const html = (reply: { json: () => unknown }) => (reply.json() as ContentReply).properties[0]?.value ?? '';

  const addEntry = (key: string, locale: string, body: string, clientId = 'acme') =>
    t.database.db
      .insertInto('content_entries')
      .values({ client_id: clientId, locale, key, body, updated_at: new Date().toISOString() })
      .execute();

  it('shows demo the rules of each of her programs, as HTML with a table', async () => {
    const { sessionId, participantRules } = await t.login('demo');
    expect(participantRules).toEqual([SALES, SERVICE]);
    for (const program of participantRules) {
      const reply = await read(rulesKey(program), { session: sessionId });
      expect(reply.statusCode).toBe(200);
      const body = reply.json<ContentReply>();
      expect(body.properties[0]).toMatchObject({ locale: 'en-US' });
      expect(html(reply)).toContain('<table>');
      expect(html(reply)).toContain('Acme Points');
    }
  });

  it('refuses the rules of a program the participant is not in with 403', async () => {
    const { sessionId } = await t.login('spent'); // only in Service Awards
    expect((await read(rulesKey(SERVICE), { session: sessionId })).statusCode).toBe(200);
    const reply = await read(rulesKey(SALES), { session: sessionId });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.rulesNotYourProgram, responseMessage: 'content.error.notYourProgram' });
    const merch = await t.login('merch'); // in no program
    expect((await read(rulesKey(SERVICE), { session: merch.sessionId })).statusCode).toBe(403);
  });

  it('answers 404 with a translated error for an unknown key', async () => {
    const { sessionId } = await t.login('demo');
    for (const key of ['nothing-here', 'rules.', 'faq']) {
      const reply = await read(key, { session: sessionId });
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.contentNotFound, responseMessage: 'content.error.notFound' });
    }
    expect((await read('nothing-here')).statusCode).toBe(404);
  });

  it('serves the participant’s language, and falls back to English for a text only in en-US', async () => {
    const { sessionId } = await t.login('spent');
    await t.api('POST', '/user/locale', { session: sessionId, body: { locale: { code: 'fr-FR' } } });
    const french = await read(contentKeys.faqs, { session: sessionId });
    expect(french.json<ContentReply>().properties[0]?.locale).toBe('fr-FR');
    expect(html(french)).toContain('Que sont les points Acme');

    // The French privacy notice is withdrawn: only the English (and Arabic) texts remain.
    await t.database.db
      .deleteFrom('content_entries')
      .where('client_id', '=', 'acme')
      .where('key', '=', contentKeys.privacyNotice)
      .where('locale', '=', 'fr-FR')
      .execute();
    const fallback = await read(contentKeys.privacyNotice, { session: sessionId });
    expect(fallback.statusCode).toBe(200);
    expect(fallback.json<ContentReply>().properties[0]?.locale).toBe('en-US');
    expect(html(fallback)).toContain('What we store');
  });

  it('lets an anonymous visitor read the FAQs and the privacy policy, in the language asked for', async () => {
    const faqs = await read(contentKeys.faqs);
    expect(faqs.statusCode).toBe(200);
    expect(faqs.json<ContentReply>().properties[0]?.locale).toBe('en-US');
    expect(html(faqs)).toContain('<h2>What are Acme Points?</h2>');

    const arabic = await read(contentKeys.privacyPolicy, { query: '?locale=ar' });
    expect(arabic.statusCode).toBe(200);
    expect(arabic.json<ContentReply>().properties[0]?.locale).toBe('ar');
    expect(html(arabic)).toContain('سياسة');

    expect((await read(contentKeys.faqs, { query: '?locale=<script>' })).statusCode).toBe(400);
  });

  it('asks for a session before the privacy notice or any rules (401)', async () => {
    for (const key of [contentKeys.privacyNotice, rulesKey(SALES), rulesKey('No such program')]) {
      for (const session of [undefined, 'A'.repeat(43)]) {
        const reply = await read(key, { session });
        expect(reply.statusCode).toBe(401);
        expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
      }
    }
    // A stale session is not quietly ignored on a public key either: the web's timeout path runs.
    expect((await read(contentKeys.faqs, { session: 'A'.repeat(43) })).statusCode).toBe(401);
  });

  it('never serves another client’s content', async () => {
    await addEntry(contentKeys.faqs, 'fr-FR', '## Globex secret question', OTHER_CLIENT_ID);
    await addEntry('rules.Globex Club', 'fr-FR', 'Globex only', OTHER_CLIENT_ID);
    const acme = await read(contentKeys.faqs, { query: '?locale=fr-FR' });
    expect(html(acme)).not.toContain('Globex');

    const globex = await read(contentKeys.faqs, { origin: OTHER_ORIGIN });
    expect(html(globex)).toContain('Globex secret question');
    // Acme's privacy policy does not exist for Globex, whatever the language.
    expect((await read(contentKeys.privacyPolicy, { origin: OTHER_ORIGIN, query: '?locale=en-US' })).statusCode).toBe(404);

    const gina = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await read(rulesKey(SALES), { session: gina.sessionId, origin: OTHER_ORIGIN })).statusCode).toBe(403);
    // Her session means nothing on Acme's site.
    expect((await read(contentKeys.privacyNotice, { session: gina.sessionId })).statusCode).toBe(401);
  });

  it('renders hostile Markdown inert: no script, no handlers, no javascript: links, raw HTML as text', async () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '[click](javascript:alert(1))',
      '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '![img](javascript:alert(1))',
      '<a href="javascript:alert(1)">raw link</a>',
      '[ok](https://example.com/help)',
      '[faq](/faqs)',
    ].join('\n\n');
    await t.database.db
      .updateTable('content_entries')
      .set({ body: hostile })
      .where('client_id', '=', 'acme')
      .where('key', '=', contentKeys.privacyPolicy)
      .where('locale', '=', 'en-US')
      .execute();
    const value = html(await read(contentKeys.privacyPolicy, { query: '?locale=en-US' }));
    expect(value).not.toMatch(/<script/i);
    expect(value).not.toMatch(/<img[^>]*onerror/i);
    expect(value).not.toMatch(/<a [^>]*href="javascript:/i);
    expect(value).not.toMatch(/href="data:/i);
    expect(value).not.toMatch(/src="javascript:/i);
    expect(value).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(value).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;');
    expect(value).toContain('<a href="https://example.com/help" target="_blank" rel="noopener noreferrer">ok</a>');
    // A link to a portal page stays in the tab.
    expect(value).toContain('<a href="/faqs">faq</a>');
  });
});

describe.each(dialects)('contactUs on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const valid = {
    topic: 'order',
    subject: 'Where is my order?',
    message: 'I ordered headphones on 2 May and nothing arrived yet.',
    replyEmail: 'dana@example.com',
    phone: '+1 555 010 0200',
  };
  const send = (body: unknown, session?: string, origin?: string) => t.api('POST', apiPaths.contactUs, { body, session, origin });
  const rowsOf = (username: string) =>
    t.database.db
      .selectFrom('contact_requests')
      .selectAll()
      .where('client_id', '=', 'acme')
      .where('username', '=', username)
      .orderBy('created_at')
      .execute();

  it('stores a message for the support desk with who sent it, status new', async () => {
    const { sessionId, userId, accountNumber } = await t.login('demo');
    const reply = await send({ ...valid, subject: '  Where is my order?  ' }, sessionId);
    expect(reply.statusCode).toBe(200);
    const { requestId, status } = reply.json<{ requestId: string; status: string }>();
    expect(status).toBe('new');
    const [row] = await rowsOf('demo');
    expect(row).toMatchObject({
      id: requestId,
      client_id: 'acme',
      participant_id: userId,
      username: 'demo',
      account_number: accountNumber,
      topic: 'order',
      subject: 'Where is my order?',
      message: valid.message,
      reply_email: 'dana@example.com',
      phone: '+1 555 010 0200',
      locale: 'en-US',
      admin_as_user: 0,
      status: 'new',
    });
    expect(row?.account_email).toContain('@');
  });

  it('keeps the optional fields empty when left out or blank', async () => {
    const { sessionId } = await t.login('newbie');
    expect(
      (await send({ topic: 'other', subject: 'Hello', message: 'Just saying hi', replyEmail: '', phone: ' ' }, sessionId)).statusCode,
    ).toBe(200);
    expect((await send({ topic: 'points', subject: 'Hello', message: 'Again' }, sessionId)).statusCode).toBe(200);
    const rows = await rowsOf('newbie');
    expect(rows.map((r) => [r.reply_email, r.phone])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it.each([
    ['no topic', { topic: undefined }],
    ['an unknown topic', { topic: 'refund' }],
    ['an empty subject', { subject: '   ' }],
    ['a subject too long', { subject: 'x'.repeat(121) }],
    ['an empty message', { message: '' }],
    ['a message too long', { message: 'x'.repeat(2001) }],
    ['a bad reply e-mail', { replyEmail: 'not-an-email' }],
    ['a bad phone', { phone: 'call me maybe' }],
    ['a message that is not text', { message: 42 }],
  ])('refuses %s with 400 and stores nothing', async (_name, change: Record<string, unknown>) => {
    const { sessionId } = await t.login('spent');
    const before = (await rowsOf('spent')).length;
    const reply = await send({ ...valid, ...change }, sessionId);
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation, responseMessage: 'error.validation' });
    expect((await rowsOf('spent')).length).toBe(before);
  });

  it('accepts a message of exactly 2000 characters', async () => {
    const { sessionId } = await t.login('inactive');
    expect((await send({ ...valid, message: 'x'.repeat(2000) }, sessionId)).statusCode).toBe(200);
  });

  it('throttles a participant after 5 messages in an hour (429), others still get through', async () => {
    const { sessionId } = await t.login('merch');
    for (let i = 0; i < 5; i++) expect((await send(valid, sessionId)).statusCode).toBe(200);
    const reply = await send(valid, sessionId);
    expect(reply.statusCode).toBe(429);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.contactThrottled, responseMessage: 'contact.error.throttled' });
    expect(await rowsOf('merch')).toHaveLength(5);

    // An hour later the window has ended.
    await t.database.db
      .updateTable('attempt_limits')
      .set({ window_ends_at: new Date(Date.now() - 1000).toISOString() })
      .where('subject', 'like', 'contact:%')
      .execute();
    expect((await send(valid, sessionId)).statusCode).toBe(200);
  });

  it('answers 401 without a session, or with another client’s session', async () => {
    expect((await send(valid)).statusCode).toBe(401);
    const gina = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await send(valid, gina.sessionId)).statusCode).toBe(401);
    const stored = await t.database.db.selectFrom('contact_requests').select('id').where('client_id', '=', OTHER_CLIENT_ID).execute();
    expect(stored).toEqual([]);
  });
});
