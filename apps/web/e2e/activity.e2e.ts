// The activity history modal (issue 5, section 1): sort, filter, page, download, and a long statement.
// On the seed's own histories, Dana's (demo) and Bea's 10,000 entries: each is signed in as by one
// story only (decision 071), and no story changes either.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  acknowledgeCookieNotice,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  signIn,
  test,
} from '../../../test-support/e2e/browser.ts';

/** The local date `days` before today, as ISO `YYYY-MM-DD`. */
function localDay(days: number): string {
  const d = new Date(Date.now() - days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Types a date as a participant does in the history filter's day, month and year (decision 037). */
async function enterDate(page: Page, name: 'From' | 'To', iso: string): Promise<void> {
  const [year = '', month = '', day = ''] = iso.split('-');
  const field = page.getByRole('dialog').getByRole('group', { name, exact: true });
  await field.getByLabel('Day').fill(String(Number(day)));
  await field.getByLabel('Month').selectOption(String(Number(month)));
  await field.getByLabel('Year').fill(year);
}

const bodyRows = (page: Page) => page.getByRole('dialog').locator('tbody tr');
const summary = (page: Page) => page.getByRole('dialog').locator('.activity__summary');
const totalOf = async (page: Page) =>
  Number((/of ([\d,]+) entries/.exec((await summary(page).textContent()) ?? '')?.[1] ?? '').replaceAll(',', ''));

test('Dana sorts, filters, pages and downloads her history', async ({ page }) => {
  await signIn(page, 'demo');
  await acknowledgeCookieNotice(page);
  // By its target rather than its text, the balance being no matter here.
  await page.getByRole('main').locator('a[href="/activity-history"]').first().click();
  await expectPath(page, '/activity-history');
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByRole('heading', { name: 'Activity history' }));
  await expectVisible(dialog.getByRole('table'));
  expect(await bodyRows(page).count()).toBe(15);
  const total = await totalOf(page);
  expect(total).toBeGreaterThanOrEqual(40);

  // Amounts, largest first, then smallest first.
  await dialog.getByRole('button', { name: /^Points/ }).click();
  await expect.poll(() => dialog.getByRole('columnheader', { name: /^Points/ }).getAttribute('aria-sort')).toBe('descending');
  const amounts = async () =>
    (await bodyRows(page).locator('td:nth-child(3)').allTextContents()).map((text) => Number(text.replace(/[^\d-]/g, '')));
  const descending = await amounts();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await dialog.getByRole('button', { name: /^Points/ }).click();
  await expect.poll(() => dialog.getByRole('columnheader', { name: /^Points/ }).getAttribute('aria-sort')).toBe('ascending');
  expect((await amounts())[0]).toBeLessThan(0);

  // Pages, then a date range that takes the view back to page 1.
  await dialog.getByRole('button', { name: 'Next page' }).click();
  await expectVisible(dialog.getByText('Page 2 of'));
  await enterDate(page, 'From', localDay(100));
  await enterDate(page, 'To', localDay(30));
  await expectVisible(dialog.getByText(/^Showing 1–/));
  const inRange = await totalOf(page);
  expect(inRange).toBeGreaterThan(0);
  expect(inRange).toBeLessThan(total);
  const dates = await bodyRows(page)
    .locator('time')
    .evaluateAll((times) => times.map((t) => Date.parse(t.getAttribute('datetime') ?? '')));
  const start = new Date(`${localDay(100)}T00:00:00`).getTime();
  const end = new Date(`${localDay(30)}T23:59:59.999`).getTime();
  for (const date of dates) expect(date >= start && date <= end, new Date(date).toISOString()).toBe(true);

  // The download holds the filtered rows, with a header row, as a spreadsheet opens them.
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /Download as CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^activity-1000001-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = text.slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe('Date,Description,Points,Balance after');
  expect(lines).toHaveLength(inRange + 1);

  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectPath(page, '/home');
});

test("Bea's 10,000 entries sort and page", async ({ page }) => {
  await signIn(page, 'bigspender');
  await acknowledgeCookieNotice(page);
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Acme Points/ })
    .click();
  await expectPath(page, '/activity-history');
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByText('Showing 1–15 of 10,000 entries'));
  await dialog.getByRole('button', { name: /^Description/ }).click();
  await expect.poll(() => dialog.getByRole('columnheader', { name: /^Description/ }).getAttribute('aria-sort')).toBe('descending');
  await dialog.getByRole('button', { name: 'Last page' }).click();
  await expectVisible(dialog.getByText('Page 667 of 667'));
  expect(await bodyRows(page).count()).toBe(10);
  await dialog.getByRole('button', { name: 'First page' }).click();
  await expectVisible(dialog.getByText('Page 1 of 667'));
  expect(await bodyRows(page).count()).toBe(15);
  await expectNoSeriousA11yViolations(page);
});
