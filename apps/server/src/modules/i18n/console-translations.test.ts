import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReply } from '@rewards/contract';
import {
  consoleTranslationsPaths as paths,
  type ImportBundleReply,
  type TranslationReply,
  type TranslationsView,
} from '@rewards/contract/console-translations';
import { dialects } from '../../../test/databases.ts';
import { DEMO_ORIGIN } from '../../../test/test-app.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp } from '../staff/test-support.ts';
import { parseBundle } from './bundle-format.ts';
import { importBundle } from './editing.ts';

const ACME = 'acme';
const OPERATOR = { name: 'ops-olga', kind: 'operator' as const, origin: 'cli@test' };

describe.each(dialects)('the console translations on %s', (dialect) => {
  let t: ConsoleTestApp;
  let manager: string;
  let auditor: string;

  beforeAll(async () => {
    // A running portal's cache on: the console's change must show on this process at once anyway.
    t = await createConsoleTestApp(dialect, { CLIENT_CACHE_SECONDS: '60' });
    manager = (await enrolStaff(t, 'pm@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] })).cookie;
    auditor = (await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] })).cookie;
    // Acme's own English wording: an intro of its own, and a key no shipped bundle has.
    await importBundle(t.database.db, OPERATOR, {
      clientId: ACME,
      locale: 'en-US',
      texts: { 'login.intro': 'Welcome to {clientName}, where every sale earns points.', 'home.promo': 'Double points in May' },
      source: 'acme.en-US.json',
      apply: true,
    });
  });
  afterAll(() => t.close());

  const view = async (locale: string, query = '', cookie = auditor) => {
    const reply = await t.console('GET', `${paths.translations(ACME, locale)}${query}`, { cookie });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<TranslationsView>();
  };
  const frenchBundle = async () =>
    BundleReply.parse((await t.api('GET', '/viewConfig/bundle/fr-FR', { origin: DEMO_ORIGIN })).json()).bundleList['fr-FR']?.properties ??
    {};

  it('lists what French lacks against English: a key with no text, the client’s wording not translated, placeholders', async () => {
    const fr = await view('fr-FR', '?filter=toTranslate');
    expect(fr).toMatchObject({ locale: 'fr-FR', defaultLocale: 'en-US', counts: { missing: 1, untranslated: 1, own: 0 } });
    expect(fr.locales.map((l) => l.code)).toEqual(['en-US', 'fr-FR', 'ar']);
    expect(fr.rows).toEqual([
      { key: 'home.promo', reference: 'Double points in May', text: null, source: 'none', state: 'missing', placeholders: null },
      {
        key: 'login.intro',
        reference: 'Welcome to {clientName}, where every sale earns points.',
        text: expect.stringContaining('{clientName}') as string,
        source: 'shipped',
        state: 'untranslated',
        placeholders: null,
      },
    ]);
    // The default locale itself: nothing to translate, its own wording counted.
    expect((await view('en-US')).counts).toMatchObject({ missing: 0, untranslated: 0, own: 2 });
    // Search by key or by text, any case; a locale named another way is the same one.
    expect((await view('fr_fr', '?q=DOUBLE')).rows.map((r) => r.key)).toEqual(['home.promo']);
    expect((await view('fr-FR', '?q=login.heading')).rows.map((r) => [r.key, r.text])).toEqual([['login.heading', 'Connexion']]);
  });

  it('lets a program manager fix a key, shown on the portal at once, audited with before and after; the auditor may not', async () => {
    const path = paths.translation(ACME, 'fr-FR', 'login.intro');
    const text = 'Bienvenue chez {clientName}, où chaque vente rapporte des points.';
    expect((await t.console('PUT', path, { cookie: auditor, body: { text, reason: 'not mine' } })).statusCode).toBe(403);
    expect(await frenchBundle()).not.toHaveProperty('login.intro', text); // and the portal's cache now holds the shipped one

    const reply = await t.console('PUT', path, { cookie: manager, body: { text, reason: 'ticket 42: our wording' } });
    expect(reply.statusCode, reply.body).toBe(200);
    const done = reply.json<TranslationReply>();
    expect(done.row).toMatchObject({ key: 'login.intro', text, source: 'client', state: 'ok', placeholders: null });
    expect((await frenchBundle())['login.intro']).toBe(text);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('id', '=', done.auditId!).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor: 'pm@acme.test',
      actor_kind: 'staff',
      action: 'clients.translations.edit',
      subject: 'login.intro',
    });
    expect(JSON.parse(audit.details)).toMatchObject({
      locale: 'fr-FR',
      fromSource: 'shipped',
      from: expect.stringContaining('{clientName}') as string,
      to: text,
      reason: 'ticket 42: our wording',
    });
    // The same text again: nothing written.
    const again = await t.console('PUT', path, { cookie: manager, body: { text, reason: 'again' } });
    expect(again.json<TranslationReply>().auditId).toBeNull();
    expect((await view('fr-FR', '?filter=toTranslate')).counts).toMatchObject({ missing: 1, untranslated: 0, own: 1 });
  });

  it('refuses what would break the portal with a clear 400 and changes nothing', async () => {
    const before = await t.database.db.selectFrom('translations').selectAll().where('client_id', '=', ACME).execute();
    const put = (locale: string, key: string, body: unknown) =>
      t.console('PUT', paths.translation(ACME, locale, key), { cookie: manager, body });
    const cases = await Promise.all([
      put('fr-FR', 'login.intro', { text: 'Bonjour {prenom}', reason: 'bad placeholder' }),
      put('fr-FR', 'no.such.key', { text: 'x', reason: 'unknown key' }),
      put('it-IT', 'login.intro', { text: 'Ciao', reason: 'not offered' }),
      put('fr-FR', 'login.intro', { text: '   ', reason: 'empty' }),
      put('fr-FR', 'login.intro', { text: 'x', reason: '' }),
      put('fr-FR', 'login.intro', { text: 'x'.repeat(10_001), reason: 'too long' }),
      put('not a locale!', 'login.intro', { text: 'x', reason: 'bad tag' }),
      put('fr-FR', 'login intro', { text: 'x', reason: 'bad key' }),
      put('fr-FR', 'login.intro', 'not json'),
    ]);
    expect(cases.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 400]);
    expect(cases[0]?.json<{ message: string }>().message).toBe('{prenom} is not a placeholder of login.intro (en-US has {clientName})');
    expect(cases[2]?.json<{ message: string }>().message).toBe("it-IT is not one of acme's locales (en-US, fr-FR, ar)");
    expect(await t.database.db.selectFrom('translations').selectAll().where('client_id', '=', ACME).execute()).toEqual(before);
  });

  it('imports a bundle: first what would change, nothing written; then applied with a reason', async () => {
    const content = [
      '# Acme, français',
      'home.promo = Points doublés en mai',
      'login.heading = Connexion Acme',
      'login.intro = Bienvenue chez {clientName}, où chaque vente rapporte des points.',
      'login.username = Identifiant {unknown}',
      'hoem.typo = x',
    ].join('\n');
    const send = (apply: boolean, reason?: string) =>
      t.console('POST', paths.importBundle(ACME, 'fr-FR'), {
        cookie: manager,
        body: { fileName: 'acme_fr_FR.properties', format: 'properties', content, apply, ...(reason ? { reason } : {}) },
      });
    const rowsBefore = await t.database.db.selectFrom('translations').selectAll().where('locale', '=', 'fr-FR').execute();
    const preview = await send(false);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<ImportBundleReply>()).toEqual({
      locale: 'fr-FR',
      applied: false,
      added: ['home.promo', 'login.heading', 'hoem.typo'],
      updated: [],
      unchanged: 1,
      rejected: [{ key: 'login.username', expected: [], found: ['unknown'] }],
      extra: ['hoem.typo'],
      placeholderMismatches: [],
      missing: [],
      auditId: null,
    });
    expect(await t.database.db.selectFrom('translations').selectAll().where('locale', '=', 'fr-FR').execute()).toEqual(rowsBefore);
    expect((await send(true)).statusCode).toBe(400); // no reason
    const applied = (await send(true, 'translator delivery 3')).json<ImportBundleReply>();
    expect(applied).toMatchObject({
      applied: true,
      added: ['home.promo', 'login.heading', 'hoem.typo'],
      auditId: expect.any(String) as string,
    });
    expect((await frenchBundle())['login.heading']).toBe('Connexion Acme');
    expect((await send(true, 'twice')).json<ImportBundleReply>()).toMatchObject({ added: [], updated: [], unchanged: 4 });
    // A file the reader refuses: 400 with the reader's message, as the command prints it.
    const bad = await t.console('POST', paths.importBundle(ACME, 'fr-FR'), {
      cookie: manager,
      body: { fileName: 'fr.json', format: 'json', content: '{"a": 3}', apply: false },
    });
    expect([bad.statusCode, bad.json<{ message: string }>().message]).toEqual([
      400,
      'fr.json: the value of a must be a text or an object of texts',
    ]);
  });

  it('exports JSON and .properties that the import reads back to the same texts', async () => {
    for (const format of ['json', 'properties'] as const) {
      for (const scope of ['all', 'own', 'toTranslate'] as const) {
        const reply = await t.console('GET', `${paths.exportBundle(ACME, 'fr-FR')}?format=${format}&scope=${scope}`, { cookie: auditor });
        expect(reply.statusCode, reply.body).toBe(200);
        expect(reply.headers['content-disposition']).toMatch(new RegExp(`attachment; filename="acme.*\\.fr-FR\\.${format}"`));
        if (scope === 'toTranslate') {
          expect(reply.body).not.toContain('home.promo'); // translated by the import above
          continue;
        }
        const texts = parseBundle('export', format, reply.body);
        const own = Object.fromEntries(
          (
            await t.database.db
              .selectFrom('translations')
              .select(['key', 'text'])
              .where('client_id', '=', ACME)
              .where('locale', '=', 'fr-FR')
              .execute()
          ).map((r) => [r.key, r.text]),
        );
        if (scope === 'own') expect(texts).toEqual(own);
        else expect(texts).toMatchObject({ ...own, 'login.password': 'Mot de passe' });
        const back = await importBundle(t.database.db, OPERATOR, { clientId: ACME, locale: 'fr-FR', texts, source: 'x', apply: false });
        expect([back.updated, back.rejected]).toEqual([[], []]);
      }
    }
  });

  it('takes 100 edits and imports of one key at once: every one answered, no 500, one row, one audit entry per change', async () => {
    const key = 'login.password';
    const calls = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? t.console('PUT', paths.translation(ACME, 'ar', key), { cookie: manager, body: { text: `كلمة ${i}`, reason: 'burst' } })
        : t.console('POST', paths.importBundle(ACME, 'ar'), {
            cookie: manager,
            body: { fileName: 'ar.json', format: 'json', content: JSON.stringify({ [key]: `كلمة ${i}` }), apply: true, reason: 'burst' },
          }),
    );
    const replies = await Promise.all(calls);
    expect(replies.map((r) => r.statusCode)).toEqual(replies.map(() => 200));
    const rows = await t.database.db
      .selectFrom('translations')
      .selectAll()
      .where('client_id', '=', ACME)
      .where('locale', '=', 'ar')
      .execute();
    expect(rows).toHaveLength(1);
    const audits = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('client_id', '=', ACME)
      .where('action', 'in', ['clients.translations.edit', 'clients.translations.import'])
      .where('details', 'like', '%"locale":"ar"%')
      .execute();
    expect(audits.length).toBe(100);
  });

  it('removes the client’s own text of a key: the shipped text shows again, audited; nothing to remove writes nothing', async () => {
    const path = paths.translation(ACME, 'fr-FR', 'login.heading');
    expect((await frenchBundle())['login.heading']).toBe('Connexion Acme');
    expect((await t.console('DELETE', path, { cookie: auditor, body: { reason: 'not mine' } })).statusCode).toBe(403);
    const reply = await t.console('DELETE', path, { cookie: manager, body: { reason: 'back to the standard wording' } });
    expect(reply.statusCode, reply.body).toBe(200);
    const done = reply.json<TranslationReply>();
    expect(done.row).toMatchObject({ key: 'login.heading', text: 'Connexion', source: 'shipped', state: 'ok' });
    expect((await frenchBundle())['login.heading']).toBe('Connexion');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('id', '=', done.auditId!).executeTakeFirstOrThrow();
    expect(audit.action).toBe('clients.translations.remove');
    expect(JSON.parse(audit.details)).toMatchObject({ from: 'Connexion Acme', to: 'Connexion', toSource: 'shipped' });
    expect((await t.console('DELETE', path, { cookie: manager, body: { reason: 'again' } })).json<TranslationReply>().auditId).toBeNull();
    expect((await t.console('DELETE', path, { cookie: manager, body: {} })).statusCode).toBe(400);
  });
});
