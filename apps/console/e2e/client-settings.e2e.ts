// Client settings in the console (issue 20 §3, decision 065): the owner changes Acme's brand
// colour; the preview of the portal's header and home shows it at 375 and 1280 px before
// anything is saved, the portal keeps the old one until the save, and after it the portal shows
// the new colour within the cache time (CLIENT_CACHE_SECONDS, 5 s by default): polled with a deadline.
// Each story's owner is its own; what a story changes of Acme is every story's, so it is put back
// when the story ends, passed or failed (restoreAcmeAfterTest, decision 071).
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ageSecondFactor,
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  mediaLabelFlag,
  nextTotpCode,
  openPortal,
  portalAnswers,
  restoreAcmeAfterTest,
  rewards,
  screenshots,
  test,
  unique,
} from './harness/console.ts';

const NEW_COLOUR = '#0f766e';
const NEW_RGB = 'rgb(15, 118, 110)';
const CACHE_SECONDS = 5;

/** The portal's brand colour, as its start-up sets it from viewConfig/client (once the page has started). */
async function portalBrand(page: Page): Promise<string> {
  await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--brand') !== '');
  return page.evaluate(() => document.documentElement.style.getPropertyValue('--brand'));
}

test('a brand colour is previewed before the save and shows on the portal within the cache time', async ({ browser }) => {
  const { page, ...olivia } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  const shown = await restoreAcmeAfterTest((acme) => ['--brand-color', acme.branding.brandColor]);
  const oldColour = shown.branding.brandColor;
  expect(oldColour).not.toBe(NEW_COLOUR);

  const portal = await openPortal(browser);
  await portal.goto('/login');
  expect(await portalBrand(portal)).toBe(oldColour);

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Client settings' }).waitFor();
  const branding = page.getByRole('region', { name: 'Acme Rewards' }).getByRole('region', { name: 'Name, logo and colour' });
  await expectVisible(branding.getByRole('group', { name: 'Preview of the portal' }));

  await branding.getByLabel('Brand colour', { exact: true }).fill(NEW_COLOUR);
  // Both frames draw the portal's buttons in the unsaved colour.
  const buttons = branding.getByTestId('portal-preview').locator('.pv-button');
  await expect
    .poll(() => buttons.evaluateAll((all) => all.map((b) => getComputedStyle(b).backgroundColor)))
    .toEqual(Array(8).fill(NEW_RGB));
  await expectVisible(branding.getByText('Phone, 375 px'));
  await expectVisible(branding.getByText('Desktop, 1280 px'));
  await checkScreen(page, '80-branding-preview');
  // Nothing saved yet: the portal still has the old colour.
  await portal.reload();
  expect(await portalBrand(portal)).toBe(oldColour);

  await branding.getByRole('button', { name: 'Save name, logo and colour' }).click();
  const dialog = page.getByRole('dialog', { name: 'Branding of Acme Rewards' });
  await dialog.getByLabel('Reason').fill('Rebrand approved by the program board');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  const savedAt = Date.now();
  // The portal answers with the new colour within the cache time (asked as its start-up asks, so
  // the deadline measures the server, not how long a page takes to reload on a busy machine)…
  const brandColour = async () =>
    (JSON.parse(await portalAnswers('client')) as { clientBranding: { brandColor: string } }).clientBranding.brandColor;
  await expect.poll(brandColour, { timeout: (CACHE_SECONDS + 5) * 1000, interval: 200 }).toBe(NEW_COLOUR);
  expect(Date.now() - savedAt).toBeLessThan((CACHE_SECONDS + 5) * 1000);
  // …and the portal, reloaded, shows it.
  await portal.reload();
  expect(await portalBrand(portal)).toBe(NEW_COLOUR);
  await expectVisible(branding.getByRole('status').getByText('Saved. The portal shows it within its cache time.'));
  await checkScreen(page, '81-branding-saved');

  await screenshots(portal, '82-portal-new-colour');

  // The operator and the audit trail see the same.
  const after = JSON.parse(await rewards(['clients', 'show', '--client', 'acme', '--json'])) as { branding: { brandColor: string } };
  expect(after.branding.brandColor).toBe(NEW_COLOUR);
  const audit = JSON.parse(await rewards(['audit', '--client', 'acme', '--action', 'clients.settings', '--json'])) as Array<{
    actor: string;
    details: Record<string, unknown>;
  }>;
  expect(audit.find((entry) => entry.actor === olivia.email)?.details).toMatchObject({
    brandColor: { from: oldColour, to: NEW_COLOUR },
    reason: 'Rebrand approved by the program board',
  });

  await closePage(page);
  await closePage(portal);
});

test('one points label for every number, from the command or the console, and forms per plural category', async ({ browser }) => {
  await restoreAcmeAfterTest((acme) => [
    '--media-label',
    mediaLabelFlag('en-US', acme.mediaLabels['en-US']!),
    '--travel',
    acme.catalogs.travel?.url ?? 'none',
  ]);
  // The command takes a single label now (it refused "not a plural form of en-US" before issue 20).
  await rewards(['clients', 'update', '--client', 'acme', '--media-label', 'en-US:Zeta Stars']);
  const { page } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  await page.getByRole('link', { name: 'Settings' }).click();
  const languages = page.getByRole('region', { name: 'Acme Rewards' }).getByRole('region', { name: 'Languages and points label' });
  await expectVisible(languages.getByRole('row', { name: /en-US \(default\).*Zeta Stars/ }));

  await languages.getByRole('button', { name: 'Change languages and labels' }).click();
  const dialog = page.getByRole('dialog', { name: 'Languages of Acme Rewards' });
  const english = dialog.getByRole('group', { name: 'Language 1' });
  await english.getByLabel('Points label forms').selectOption({ label: 'A label per plural form' });
  await english.getByLabel('Label, form “one”').fill('Acme Point');
  await english.getByLabel('Label, form “other”').fill('Acme Points');
  await dialog.getByLabel('Reason').fill('Back to the plural forms');
  await checkScreen(page, '83-languages-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(languages.getByRole('status').getByText('Languages and labels saved.'));
  await expectVisible(languages.getByRole('row', { name: /en-US \(default\).*one: Acme Point, other: Acme Points/ }));
  await checkScreen(page, '84-languages-saved');

  const shown = JSON.parse(await rewards(['clients', 'show', '--client', 'acme', '--json'])) as { mediaLabels: Record<string, unknown> };
  expect(shown.mediaLabels['en-US']).toEqual({ one: 'Acme Point', other: 'Acme Points' });

  // Program rules: a support e-mail the server refuses keeps the dialog open with its words; a good one saves.
  const program = page.getByRole('region', { name: 'Acme Rewards' }).getByRole('region', { name: 'Program rules' });
  await program.getByRole('button', { name: 'Change program rules' }).click();
  const rules = page.getByRole('dialog', { name: 'Program rules of Acme Rewards' });
  await rules.getByLabel('Travel link').fill('javascript:alert(1)');
  await rules.getByLabel('Reason').fill('Travel partner signed');
  await rules.getByRole('button', { name: 'Save' }).click();
  await expectVisible(rules.getByText(/the travel link: must be an http\(s\) URL or a path/));
  await rules.getByLabel('Travel link').fill('https://travel.example/acme');
  await checkScreen(page, '85-program-rules-dialog');
  await rules.getByRole('button', { name: 'Save' }).click();
  await rules.waitFor({ state: 'detached' });
  await expectVisible(program.getByRole('status').getByText('Program rules saved.'));
  await expectVisible(program.getByText('https://travel.example/acme'));
  await closePage(page);
});

// Part H: a catalog with a new partner, whose secret shows once; the partner's secret rotated behind a fresh
// second factor; single sign-on read with its secret never shown.
test("a new catalog partner's secret and a rotated one show once; single sign-on is read without its secret", async ({ browser }) => {
  const { page, ...olivia } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  // The partner is new (a partner id is never used twice); the catalog is Acme's, put back afterwards.
  const PARTNER = `e2e-experiences-${unique()}`;
  await restoreAcmeAfterTest((acme) =>
    acme.catalogs.experiences
      ? [
          '--experiences',
          acme.catalogs.experiences.url,
          ...(acme.catalogs.experiences.partnerId ? ['--experiences-partner', acme.catalogs.experiences.partnerId] : []),
        ]
      : ['--experiences', 'none'],
  );
  await page.getByRole('link', { name: 'Settings' }).click();
  const acme = page.getByRole('region', { name: 'Acme Rewards' });
  const catalogs = acme.getByRole('region', { name: 'Catalogs and partners' });
  await catalogs.getByRole('button', { name: 'Change catalogs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Catalogs of Acme Rewards' });
  await dialog.getByLabel('Experiences catalog: address').fill('https://experiences.example/acme');
  await dialog.getByLabel('Experiences catalog: partner id').fill(PARTNER);
  await dialog.getByLabel('Reason').fill('Experiences vendor signed, contract 31');
  await checkScreen(page, '86-catalogs-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  const once = catalogs.getByRole('alert').filter({ hasText: `Secret of ${PARTNER}, shown this once` });
  await expectVisible(once);
  const secret = (await once.locator('code').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await checkScreen(page, '87-catalogs-secret-once');
  await once.getByRole('button', { name: 'I have copied it' }).click();
  await expect.poll(() => page.content()).not.toContain(secret);

  // A new secret wants a second factor passed within five minutes: an older one asks again.
  ageSecondFactor(olivia.email);
  await catalogs.getByRole('button', { name: `New secret for ${PARTNER}` }).click();
  const rotate = page.getByRole('dialog', { name: `A new secret for ${PARTNER}` });
  await rotate.getByLabel('Reason').fill('The vendor lost it, ticket 32');
  await rotate.getByRole('button', { name: 'Issue a new secret' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.waitFor();
  await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(olivia.secret));
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  const rotated = catalogs.getByRole('alert').filter({ hasText: `Secret of ${PARTNER}, shown this once` });
  await expectVisible(rotated);
  const second = (await rotated.locator('code').textContent()) ?? '';
  expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(second).not.toBe(secret);
  await rotated.getByRole('button', { name: 'I have copied it' }).click();
  const audit = JSON.parse(await rewards(['audit', '--client', 'acme', '--action', 'clients.partner-secret', '--json'])) as Array<{
    actor: string;
    details: Record<string, unknown>;
  }>;
  expect(audit.find((entry) => entry.actor === olivia.email)?.details).toEqual({
    partnerId: PARTNER,
    reason: 'The vendor lost it, ticket 32',
  });

  // The vendor leaves: once the catalog is withdrawn, the partner can be revoked; it stays listed, revoked.
  expect(await catalogs.getByRole('button', { name: `Revoke ${PARTNER}` }).count()).toBe(0);
  await catalogs.getByRole('button', { name: 'Change catalogs' }).click();
  await dialog.getByLabel('Experiences catalog: address').fill('');
  await dialog.getByLabel('Reason').fill('Experiences vendor left, contract 31 ended');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await catalogs.getByRole('button', { name: `Revoke ${PARTNER}` }).click();
  const revoke = page.getByRole('dialog', { name: `Revoke ${PARTNER}` });
  await revoke.getByLabel('Reason').fill('Contract 31 ended');
  await revoke.getByRole('button', { name: 'Revoke the partner' }).click();
  await expectVisible(catalogs.getByText(`${PARTNER} revoked.`));
  await expectVisible(catalogs.getByRole('listitem').filter({ hasText: new RegExp(`${PARTNER} \\(since .*, revoked on `) }));
  expect(await catalogs.getByRole('button', { name: `New secret for ${PARTNER}` }).count()).toBe(0);
  await checkScreen(page, '87-catalogs-partner-revoked');

  const sso = acme.getByRole('region', { name: 'Single sign-on' });
  await expectVisible(sso.getByText('Redirect URIs to register at the provider'));
  await expectVisible(sso.getByRole('button', { name: 'Change single sign-on' }));
  await checkScreen(page, '88-sso-section');
  await closePage(page);
});
