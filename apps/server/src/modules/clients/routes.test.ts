import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientData, ErrorCode } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';

describe.each(dialects)('GET viewConfig/client on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('gives the demo program its branding, languages, labels and default bundle', async () => {
    const reply = await t.api('GET', '/viewConfig/client');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const data = ClientData.parse(reply.json());
    expect(data.clientBranding.clientName).toBe('Acme Rewards');
    expect(data.clientBranding.clientLogo).toMatch(/^\/brand\/acme\/logo\.svg\?v=[\w-]{12}$/);
    expect(data.locale).toEqual({ code: 'en-US', dir: 'ltr' });
    expect(data.localeList.map((l) => `${l.code}:${l.dir}`)).toEqual(['en-US:ltr', 'fr-FR:ltr', 'ar:rtl']);
    expect(data.clientBranding.mediaLabels.find((m) => m.locale === 'en-US')).toEqual({
      locale: 'en-US',
      cmText: 'Acme Points',
      forms: { one: 'Acme Point', other: 'Acme Points' },
    });
    const arabic = data.clientBranding.mediaLabels.find((m) => m.locale === 'ar');
    expect(Object.keys(arabic?.forms ?? {}).sort()).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    expect(Object.keys(data.bundleList)).toEqual(['en-US']);
    expect(data.privacyNoticeVersion).toBe(1);
    expect(data.sessionIdleMinutes).toBe(30);
    expect(data.ssoConfig.ssoType).toBe('login_only');
  });

  it('answers each origin with its own client only', async () => {
    const reply = await t.api('GET', '/viewConfig/client', { origin: OTHER_ORIGIN });
    const data = ClientData.parse(reply.json());
    expect(data.clientBranding.clientName).toBe('Globex Loyalty');
    expect(data.locale.code).toBe('fr-FR');
    expect(data.bundleList['fr-FR']?.properties['login.title']).toBe('Bienvenue chez Globex');
    expect(JSON.stringify(data)).not.toContain('Acme');
  });

  it('maps every port of localhost to the demo client', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:41234', 'http://localhost']) {
      const data = ClientData.parse((await t.api('GET', '/viewConfig/client', { origin })).json());
      expect(data.clientBranding.clientName).toBe('Acme Rewards');
    }
  });

  it('refuses an unknown or malformed origin with a translated error', async () => {
    for (const origin of ['https://unknown.example', 'not a url', '']) {
      const reply = await t.api('GET', '/viewConfig/client', { origin });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toEqual({
        errorCode: ErrorCode.unknownClient,
        responseMessage: 'error.unknownClient',
        message: 'No program is configured for this site',
      });
    }
  });

  it('serves the logo as an SVG that cannot run script', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/brand/acme/logo.svg' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('image/svg+xml');
    expect(reply.headers['content-security-policy']).toContain("default-src 'none'");
    expect(reply.body).toContain('<svg');
    expect(reply.headers['cache-control']).toBe('public, max-age=3600');
    expect((await t.app.inject({ method: 'GET', url: '/brand/nobody/logo.svg' })).statusCode).toBe(404);
  });

  it('opens the demo neighbour, Nimbus Miles, on 127.0.0.2 and nimbus.localhost, where "demo" is Noémie', async () => {
    for (const origin of ['http://127.0.0.2:3000', 'http://nimbus.localhost:3000']) {
      const data = ClientData.parse((await t.api('GET', '/viewConfig/client', { origin })).json());
      expect(data.clientBranding).toMatchObject({
        clientName: 'Nimbus Miles',
        brandColor: '#0e7490',
        clientLogo: expect.stringMatching(/^\/brand\/nimbus\/logo\.svg\?v=/) as unknown,
      });
      expect(data.locale.code).toBe('fr-FR');
      expect(data.bundleList['fr-FR']?.properties['login.heading']).toBe('Embarquement');
    }
    const noemie = await t.login('demo', undefined, 'http://127.0.0.2:3000');
    expect(noemie.firstName).toBe('Noémie');
    const dana = await t.login('demo');
    expect(dana.firstName).toBe('Dana');
  });

  it('serves a PNG logo as a PNG, under either name', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await t.database.db
      .updateTable('clients')
      .set({ logo: png.toString('base64'), logo_type: 'image/png' })
      .where('id', '=', 'globex')
      .execute();
    const data = ClientData.parse((await t.api('GET', '/viewConfig/client', { origin: OTHER_ORIGIN })).json());
    expect(data.clientBranding.clientLogo).toMatch(/^\/brand\/globex\/logo\.png\?v=/);
    for (const url of ['/brand/globex/logo.png', '/brand/globex/logo.svg']) {
      const reply = await t.app.inject({ method: 'GET', url });
      expect(reply.headers['content-type']).toBe('image/png');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.rawPayload.equals(png)).toBe(true);
    }
  });

  it('keeps the logo a year at the versioned address client data gives, an hour at any other', async () => {
    const logo = ClientData.parse((await t.api('GET', '/viewConfig/client')).json()).clientBranding.clientLogo;
    const current = await t.app.inject({ method: 'GET', url: logo });
    expect(current.statusCode).toBe(200);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const stale = await t.app.inject({ method: 'GET', url: '/brand/acme/logo.svg?v=older-versio' });
    expect(stale.headers['cache-control']).toBe('public, max-age=3600');
  });
});
