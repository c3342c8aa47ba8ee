// Date fields speak the page's language, not the browser's (decision 037): the browser here is
// English (the context's locale), the pages Arabic and French.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { acknowledgeCookieNotice, chooseLanguage, expectNoSeriousA11yViolations, expectPath, expectVisible, signIn, test } from './harness/browser.ts';

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const indic = (digits: string) => digits.replace(/\d/g, (d) => ARABIC_INDIC[Number(d)] ?? d);
const partLabels = (field: Locator) => field.locator('label').allTextContents();
const inlineStart = async (locator: Locator) => (await locator.boundingBox())?.x ?? Number.NaN;

async function chooseAndWait(page: Page, name: RegExp, code: string): Promise<void> {
  await chooseLanguage(page, name);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, code);
}

test('Dana, reading in Arabic, types the history dates in Arabic, right to left', async ({ page }) => {
  await signIn(page);
  await acknowledgeCookieNotice(page);
  await chooseAndWait(page, /العربية|arabic/i, 'ar');
  try {
    await page.getByRole('main').locator('a[href="/activity-history"]').first().click();
    await expectPath(page, '/activity-history');
    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByRole('table'));
    const from = dialog.getByRole('group', { name: 'من', exact: true });
    const to = dialog.getByRole('group', { name: 'إلى', exact: true });

    // Day, month, year in reading order: the day at the right, the year at the left.
    expect(await partLabels(from)).toEqual(['اليوم', 'الشهر', 'السنة']);
    expect(await inlineStart(from.getByLabel('اليوم'))).toBeGreaterThan(await inlineStart(from.getByLabel('السنة')));
    expect(await from.getByLabel('الشهر').locator('option').allTextContents()).toContain('مارس');
    expect(await dialog.locator('.activity__filter').innerText()).not.toMatch(/[A-Za-z]/);

    // Arabic-Indic digits are taken as typed; a last day before the first is pointed out, in Arabic.
    await from.getByLabel('اليوم').fill(indic('15'));
    await from.getByLabel('الشهر').selectOption('3');
    await from.getByLabel('السنة').fill(indic('2026'));
    await to.getByLabel('اليوم').fill(indic('1'));
    await to.getByLabel('الشهر').selectOption('3');
    await to.getByLabel('السنة').fill(indic('2026'));
    const message = to.locator('.date-field__error');
    await expectVisible(message);
    expect(await message.innerText()).toMatch(/[\u0600-\u06FF]/);
    expect(await message.innerText()).not.toMatch(/[A-Za-z]/);
    expect(await to.getByLabel('اليوم').getAttribute('aria-invalid')).toBe('true');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'مسح التواريخ' }).click();
    await expectVisible(dialog.getByRole('table'));
    expect(await from.getByLabel('اليوم').inputValue()).toBe('');
  } finally {
    // Choosing a language signed in stores it as Dana's: other files expect her English.
    await page.goto('/home');
    await chooseAndWait(page, /english/i, 'en-US');
  }
});

test('a French visitor types a date of birth day first, and the form sends it as an ISO date', async ({ page }) => {
  // The demo client asks for no date of birth: its inlined client data is given one.
  await page.route(/\/activation$/, async (route) => {
    const reply = await route.fetch();
    const html = (await reply.text()).replace('"activationFields":["accountNumber","lastName"]', '"activationFields":["accountNumber","dateOfBirth"]');
    await route.fulfill({ status: reply.status(), contentType: 'text/html; charset=utf-8', body: html });
  });
  let sent: unknown;
  await page.route(/\/api\/v1\.0\/activate$/, async (route) => {
    sent = route.request().postDataJSON();
    await route.abort();
  });
  await page.goto('/activation');
  await acknowledgeCookieNotice(page);
  await chooseAndWait(page, /français|french/i, 'fr-FR');
  const birth = page.getByRole('group', { name: 'Date de naissance' });
  await expectVisible(birth);
  expect(await partLabels(birth)).toEqual(['Jour', 'Mois', 'Année']);
  expect(await inlineStart(birth.getByLabel('Jour'))).toBeLessThan(await inlineStart(birth.getByLabel('Année')));

  await birth.getByLabel('Jour').fill('31');
  await birth.getByLabel('Mois').selectOption({ label: 'février' });
  await birth.getByLabel('Année').fill('1990');
  await expectVisible(birth.getByText('Saisissez un jour entre 1 et 28.'));
  await expectNoSeriousA11yViolations(page);

  await birth.getByLabel('Jour').fill('28');
  await page.getByLabel('Numéro de compte').fill('1000004');
  await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('Garden-Path-42');
  await page.getByLabel('Confirmez le nouveau mot de passe', { exact: true }).fill('Garden-Path-42');
  await page.getByRole('checkbox').check();
  await page.locator('main button[type="submit"]').click();
  await expect.poll(() => sent).toMatchObject({ characteristics: { accountNumber: '1000004', dateOfBirth: '1990-02-28' } });
});
