import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReply, ClientData, ErrorCode } from '@rewards/contract';
import { buildBundle } from './service.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';

describe.each(dialects)('GET viewConfig/bundle/{locale} on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it.each(['en-US', 'fr-FR', 'ar'])('serves the %s bundle of the demo program', async (locale) => {
    const reply = await t.api('GET', `/viewConfig/bundle/${locale}`);
    expect(reply.statusCode).toBe(200);
    const { bundleList } = BundleReply.parse(reply.json());
    expect(bundleList[locale]?.locale).toBe(locale);
    expect(Object.keys(bundleList[locale]?.properties ?? {}).length).toBeGreaterThan(0);
  });

  it('serves translated text, not English, for French and Arabic', async () => {
    const en = BundleReply.parse((await t.api('GET', '/viewConfig/bundle/en-US')).json()).bundleList['en-US']?.properties ?? {};
    for (const locale of ['fr-FR', 'ar']) {
      const other = BundleReply.parse((await t.api('GET', `/viewConfig/bundle/${locale}`)).json()).bundleList[locale]?.properties ?? {};
      const keys = Object.keys(en).filter((key) => /[a-z]{4}/i.test(en[key] ?? ''));
      const same = keys.filter((key) => other[key] === en[key]);
      // Brand names and the like may stay; most of the text must not.
      expect(same.length).toBeLessThan(keys.length * 0.2);
    }
  });

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await t.api('GET', '/viewConfig/bundle/fr-FR');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const second = await t.api('GET', '/viewConfig/bundle/fr-FR', { headers: { 'if-none-match': etag } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });

  it("puts a client's own wording over the shipped bundle, for that client only", async () => {
    const globex = BundleReply.parse((await t.api('GET', '/viewConfig/bundle/fr-FR', { origin: OTHER_ORIGIN })).json());
    const acme = BundleReply.parse((await t.api('GET', '/viewConfig/bundle/fr-FR')).json());
    expect(globex.bundleList['fr-FR']?.properties['login.title']).toBe('Bienvenue chez Globex');
    expect(acme.bundleList['fr-FR']?.properties['login.title']).not.toBe('Bienvenue chez Globex');
  });

  it("sends browsers none of the server's own texts (mails, statement lines), which the server still has", async () => {
    const served = BundleReply.parse((await t.api('GET', '/viewConfig/bundle/fr-FR')).json()).bundleList['fr-FR']?.properties ?? {};
    const page = ClientData.parse((await t.api('GET', '/viewConfig/client')).json()).bundleList['en-US']?.properties ?? {};
    for (const properties of [served, page]) {
      expect(Object.keys(properties).filter((key) => /^(mail|contactMail|ledger)\./.test(key))).toEqual([]);
      expect(properties['login.heading']).toBeTruthy();
    }
    const own = (await buildBundle(t.database.db, 'acme', 'fr-FR')).properties;
    expect(own['mail.greeting']).toBeTruthy();
    expect(own['ledger.ots.redeemed']).toBeTruthy();
    expect(own['contactMail.intro']).toBeTruthy();
  });

  it('refuses a language the client does not offer, and malformed tags', async () => {
    const unsupported = await t.api('GET', '/viewConfig/bundle/de-DE');
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json()).toMatchObject({ errorCode: ErrorCode.unsupportedLocale });
    // Globex offers French only.
    expect((await t.api('GET', '/viewConfig/bundle/ar', { origin: OTHER_ORIGIN })).statusCode).toBe(400);
    for (const bad of ['%3Cscript%3E', 'a', '..%2F..%2Fetc', 'x'.repeat(100)]) {
      const reply = await t.api('GET', `/viewConfig/bundle/${bad}`);
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ responseMessage: 'error.validation' });
    }
  });
});
