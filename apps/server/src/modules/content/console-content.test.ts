import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type ContentReply as PortalContentReply } from '@rewards/contract';
import {
  consoleTranslationsPaths as paths,
  type ContentEntry,
  type ContentList,
  type ContentPreviewReply,
  type ContentReply,
} from '@rewards/contract/console-translations';
import { dialects } from '../../../test/databases.ts';
import { DEMO_ORIGIN } from '../../../test/test-app.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp } from '../staff/test-support.ts';

const ACME = 'acme';
const UNSAFE = [
  '## Questions',
  '<script>alert(1)</script>',
  '[click](javascript:alert(2)) and <img src=x onerror="alert(3)">',
  '[our site](https://acme.example/help)',
].join('\n\n');

describe.each(dialects)('the console content editor on %s', (dialect) => {
  let t: ConsoleTestApp;
  let manager: string;
  let agent: string;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = (await enrolStaff(t, 'pm@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] })).cookie;
    agent = (await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] })).cookie;
  });
  afterAll(() => t.close());

  it('lists the keys there may be and which locales have them', async () => {
    const reply = await t.console('GET', paths.content(ACME), { cookie: agent });
    expect(reply.statusCode, reply.body).toBe(200);
    const list = reply.json<ContentList>();
    expect(list.defaultLocale).toBe('en-US');
    expect(list.keys.slice(0, 3)).toEqual(['faqs', 'privacyPolicy', 'privacyNotice']);
    expect(list.keys.some((k) => k.startsWith('rules.'))).toBe(true);
    expect(list.entries).toContainEqual(expect.objectContaining({ key: 'faqs', locale: 'fr-FR' }));
  });

  it('previews Markdown exactly as the portal will show it, script and unsafe links removed in both', async () => {
    const preview = await t.console('POST', paths.contentPreview(ACME), { cookie: agent, body: { body: UNSAFE } });
    expect(preview.statusCode, preview.body).toBe(200);
    const { html } = preview.json<ContentPreviewReply>();
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://acme.example/help" target="_blank" rel="noopener noreferrer">our site</a>');

    // Saved by a program manager (an agent may preview, not save): the portal serves the same HTML.
    const path = paths.contentEntry(ACME, 'fr-FR', 'faqs');
    expect((await t.console('PUT', path, { cookie: agent, body: { body: UNSAFE, reason: 'not mine' } })).statusCode).toBe(403);
    const saved = await t.console('PUT', path, { cookie: manager, body: { body: UNSAFE, reason: 'ticket 7: new FAQ' } });
    expect(saved.statusCode, saved.body).toBe(200);
    const done = saved.json<ContentReply>();
    expect(done).toMatchObject({ key: 'faqs', locale: 'fr-FR', body: UNSAFE, html });
    const portal = await t.api('GET', `${apiPaths.contentKey('faqs')}?locale=fr-FR`, { origin: DEMO_ORIGIN });
    expect(portal.json<PortalContentReply>().properties[0]?.value).toBe(html);

    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('id', '=', done.auditId!).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: 'pm@acme.test', action: 'clients.content.edit', subject: 'faqs' });
    expect(JSON.parse(audit.details)).toMatchObject({ locale: 'fr-FR', reason: 'ticket 7: new FAQ', toLength: UNSAFE.length });
    // Saving the same text writes nothing and keeps its date.
    const again = (await t.console('PUT', path, { cookie: manager, body: { body: UNSAFE, reason: 'same' } })).json<ContentReply>();
    expect([again.auditId, again.updatedAt]).toEqual([null, done.updatedAt]);
    const read = (await t.console('GET', path, { cookie: agent })).json<ContentEntry>();
    expect(read).toEqual({ key: 'faqs', locale: 'fr-FR', body: UNSAFE, html, updatedAt: done.updatedAt });
  });

  it('creates a program’s rules in a locale that had none; a text not there yet reads as null', async () => {
    const path = paths.contentEntry(ACME, 'ar', 'rules.Spring Sprint 2027');
    expect((await t.console('GET', path, { cookie: agent })).json<ContentEntry>()).toMatchObject({
      body: null,
      html: null,
      updatedAt: null,
    });
    const saved = await t.console('PUT', path, { cookie: manager, body: { body: '### من\nالجميع', reason: 'new program' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.console('GET', paths.content(ACME), { cookie: agent })).json<ContentList>().keys).toContain('rules.Spring Sprint 2027');
  });

  it('removes a text in one locale with a reason: the portal no longer has it there; a second removal writes nothing', async () => {
    const path = paths.contentEntry(ACME, 'fr-FR', 'rules.Gone Program');
    await t.console('PUT', path, { cookie: manager, body: { body: '## Règles\n\nFin au 31 décembre.', reason: 'ticket 8' } });
    expect((await t.console('DELETE', path, { cookie: agent, body: { reason: 'not mine' } })).statusCode).toBe(403);
    expect((await t.console('DELETE', path, { cookie: manager, body: {} })).statusCode).toBe(400);

    const removed = await t.console('DELETE', path, { cookie: manager, body: { reason: 'program ended' } });
    expect(removed.statusCode, removed.body).toBe(200);
    const done = removed.json<ContentReply>();
    expect(done).toMatchObject({ key: 'rules.Gone Program', locale: 'fr-FR', body: null, html: null });
    expect(done.auditId).not.toBeNull();
    expect((await t.console('GET', path, { cookie: agent })).json<ContentEntry>().body).toBeNull();
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('id', '=', done.auditId)
      .executeTakeFirst();
    expect(audit?.action).toBe('clients.content.remove');
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({
      locale: 'fr-FR',
      key: 'rules.Gone Program',
      reason: 'program ended',
      fromLength: 30,
    });

    const again = await t.console('DELETE', path, { cookie: manager, body: { reason: 'program ended' } });
    expect(again.json<ContentReply>().auditId).toBeNull();
    const bad = await t.console('DELETE', paths.contentEntry(ACME, 'fr-FR', 'terms'), { cookie: manager, body: { reason: 'x' } });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const before = await t.database.db.selectFrom('content_entries').selectAll().where('client_id', '=', ACME).execute();
    const put = (locale: string, key: string, body: unknown) =>
      t.console('PUT', paths.contentEntry(ACME, locale, key), { cookie: manager, body });
    const cases = await Promise.all([
      put('fr-FR', 'terms', { body: 'x', reason: 'unknown key' }),
      put('fr-FR', 'faqs', { body: '  ', reason: 'empty' }),
      put('it-IT', 'faqs', { body: 'x', reason: 'not offered' }),
      put('fr-FR', 'faqs', { body: 'x', reason: 'no' }),
      put('fr-FR', 'faqs', { body: 'x'.repeat(210_000), reason: 'too long' }),
      put('fr-FR', 'rules. ', { body: 'x', reason: 'no program' }),
      t.console('POST', paths.contentPreview(ACME), { cookie: manager, body: { body: 3 } }),
    ]);
    expect(cases.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(cases[0]?.json<{ message: string }>().message).toBe(
      '"terms" is not a content key (faqs, privacyPolicy, privacyNotice, rules.<program name>)',
    );
    expect(await t.database.db.selectFrom('content_entries').selectAll().where('client_id', '=', ACME).execute()).toEqual(before);
  });
});
