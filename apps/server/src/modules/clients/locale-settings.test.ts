import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientData } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import { consoleClientPaths as paths, type LocaleSettings, type LocaleSettingsReply } from '@rewards/contract/console-clients';
import { dialects } from '../../../test/databases.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

const ACME = 'acme';
const REASON = 'Program board, minute 20';

/** The console's locales and media labels (issue 20 §3, decision 065) through the API, on both engines. */
describe.each(dialects)("the console's locale settings on %s", (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());

  const get = (who: EnrolledStaff) => t.console('GET', paths.localeSettings(ACME), { cookie: who.cookie });
  const put = (who: EnrolledStaff, body: unknown) => t.console('PUT', paths.localeSettings(ACME), { cookie: who.cookie, body });

  it('reads the demo; a single label is accepted for every form, locales reordered and one dropped with its label, audited', async () => {
    const before = (await get(auditor)).json<LocaleSettings>();
    expect(before.locales.map((l) => l.code)).toEqual(['en-US', 'fr-FR', 'ar']);
    expect(before.defaultLocale).toBe('en-US');
    expect((await put(auditor, { locales: before.locales, defaultLocale: 'en-US', mediaLabels: [], reason: REASON })).statusCode).toBe(403);

    const reply = await put(manager, {
      locales: [{ code: 'fr_fr' }, { code: 'en-us', name: 'English (US)' }],
      defaultLocale: 'fr-FR',
      mediaLabels: [{ locale: 'en-US', label: 'Zeta Stars' }],
      reason: REASON,
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const set = reply.json<LocaleSettingsReply>();
    expect(set.locales).toEqual([
      { code: 'fr-FR', dir: 'ltr', name: 'Français' },
      { code: 'en-US', dir: 'ltr', name: 'English (US)' },
    ]);
    expect(set.defaultLocale).toBe('fr-FR');
    // en-US's one text for every form; fr-FR keeps its forms; ar's label went with ar.
    expect(set.mediaLabels).toEqual([
      { locale: 'en-US', forms: { other: 'Zeta Stars' } },
      { locale: 'fr-FR', forms: { one: 'point Acme', many: 'de points Acme', other: 'points Acme' } },
    ]);
    const audit = await t.database.db.selectFrom('audit_log').select('details').where('id', '=', set.auditId).executeTakeFirstOrThrow();
    const details = JSON.parse(audit.details) as Record<string, { from: unknown; to: unknown }>;
    expect(details.defaultLocale).toEqual({ from: 'en-US', to: 'fr-FR' });
    expect(details.locales?.to).toEqual(set.locales);
    expect(details.mediaLabels?.from).toEqual(before.mediaLabels);

    // The portal (no read cache in the tests) shows the single label for every count.
    const data = (await t.api('GET', apiPaths.clientData)).json<ClientData>();
    expect(data.locale.code).toBe('fr-FR');
    expect(data.clientBranding.mediaLabels.find((m) => m.locale === 'en-US')).toEqual({
      locale: 'en-US',
      cmText: 'Zeta Stars',
      forms: { other: 'Zeta Stars' },
    });

    const again = await put(manager, { locales: set.locales, defaultLocale: 'fr-FR', mediaLabels: [], reason: REASON });
    expect(again.json<LocaleSettingsReply>().auditId).toBeNull();
    // Back as the demo had it, for the next test.
    expect(
      (
        await put(manager, {
          locales: before.locales,
          defaultLocale: 'en-US',
          mediaLabels: before.mediaLabels.map((l) => ({ locale: l.locale, label: l.forms })),
          reason: REASON,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses what the command refuses with a 400 naming it, and changes nothing', async () => {
    const before = (await get(manager)).json<LocaleSettings>();
    const ok = { locales: before.locales, defaultLocale: 'en-US', mediaLabels: [], reason: REASON };
    const bad: Array<[unknown, RegExp | undefined]> = [
      [{ ...ok, locales: [] }, undefined],
      [{ ...ok, locales: [{ code: 'not a locale' }] }, /"not a locale" is not a language tag/],
      [{ ...ok, locales: [{ code: 'en-US' }, { code: 'en-us' }] }, /en-US is given twice/],
      [{ ...ok, defaultLocale: 'de-DE' }, /the default locale de-DE is not one of the locales/],
      [{ ...ok, locales: [{ code: 'en-US', dir: 'sideways' }] }, undefined],
      [{ ...ok, mediaLabels: [{ locale: 'de-DE', label: 'Sterne' }] }, /de-DE is not one of the locales/],
      [
        { ...ok, mediaLabels: [{ locale: 'en-US', label: { few: 'a few', other: 'stars' } }] },
        /"few" is not a plural form of en-US \(use one, other\)/,
      ],
      [{ ...ok, mediaLabels: [{ locale: 'en-US', label: { one: 'star' } }] }, /the form "other" is required for en-US/],
      [{ ...ok, mediaLabels: [{ locale: 'en-US', label: '   ' }] }, /must not be empty/],
      [{ ...ok, mediaLabels: [{ locale: 'en-US', label: 'x'.repeat(61) }] }, /at most 60 characters/],
      [{ ...ok, reason: '' }, undefined],
    ];
    for (const [body, message] of bad) {
      const reply = await put(manager, body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 160)).toBe(400);
      if (message) expect(reply.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get(manager)).json()).toEqual(before);
  });
});
