// Date fields speak the page's language, not the browser's (decision 037): the browser here is
// English (the context's locale), the page Arabic. The date of birth, in French and Arabic, is
// activation.e2e.ts's (a client that really asks for it). Choosing a language signed in stores it
// on the participant: she is the story's own (decision 071).
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  acknowledgeCookieNotice,
  chooseLanguage,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  newParticipant,
  signIn,
  test,
} from '../../../test-support/e2e/browser.ts';

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const indic = (digits: string) => digits.replace(/\d/g, (d) => ARABIC_INDIC[Number(d)] ?? d);
const partLabels = (field: Locator) => field.locator('label').allTextContents();
const inlineStart = async (locator: Locator) => (await locator.boundingBox())?.x ?? Number.NaN;

async function chooseAndWait(page: Page, name: RegExp, code: string): Promise<void> {
  await chooseLanguage(page, name);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, code);
}

test('Dalia, reading in Arabic, types the history dates in Arabic, right to left', async ({ page }) => {
  await signIn(page, (await newParticipant({ firstName: 'Dalia', points: 1_200 })).username);
  await acknowledgeCookieNotice(page);
  await chooseAndWait(page, /العربية|arabic/i, 'ar');
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
});
