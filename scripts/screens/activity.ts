import type { Page } from 'playwright-core';
import { expectPath, expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit, ScreenLocale } from './kit.ts';

const FRENCH: ScreenLocale = { code: 'fr-FR', name: /français|french/i };

/** The local date `days` before today, as ISO `YYYY-MM-DD`. */
function localDay(days: number): string {
  const d = new Date(Date.now() - days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Opens the history from the home balance link, as a participant does, and waits for its body. */
async function openHistory(page: Page, ready: 'table' | 'empty'): Promise<void> {
  await page.locator('main a[href="/activity-history"]').first().click();
  await expectPath(page, '/activity-history');
  const dialog = page.getByRole('dialog');
  await expectVisible(ready === 'table' ? dialog.locator('table') : dialog.locator('.activity__empty'));
}

/** Screens of the activity capability (issue 5): Dana's history in each language and width, Nina's empty one. */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await kit.signIn(page, 'demo');
      await kit.switchTo(page, locale);
      await openHistory(page, 'table');
      await kit.shoot(page, `activity-${locale.code}-${width}`);
      await page.context().close();
    }
  }

  // The date filter in each language (decision 037): a first day typed in full, a last day half typed and left.
  const locales = [...kit.locales.filter((l) => l.code === 'en-US'), FRENCH, ...kit.locales.filter((l) => l.code !== 'en-US')];
  for (const locale of locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await kit.signIn(page, 'demo');
      await kit.switchTo(page, locale);
      await openHistory(page, 'table');
      const [from, to] = [page.locator('.date-field').nth(0), page.locator('.date-field').nth(1)];
      const [year = '', month = '', day = ''] = localDay(60).split('-');
      await from.locator('.date-field__part--day input').fill(String(Number(day)));
      await from.locator('select').selectOption(String(Number(month)));
      await from.locator('.date-field__part--year input').fill(year);
      await to.locator('.date-field__part--day input').fill('12');
      await page.getByRole('dialog').locator('h1').click();
      await expectVisible(to.locator('.date-field__error'));
      await kit.shoot(page, `activity-filter-${locale.code}-${width}`);
      await page.context().close();
    }
  }

  // Nina never earned anything: home has no balance link, so she opens the page directly.
  const page = await kit.newPage(1280);
  await kit.signIn(page, 'newbie');
  await page.goto('/activity-history');
  await expectVisible(page.getByRole('dialog').locator('.activity__empty'));
  await kit.shoot(page, 'activity-empty-en-US-1280');
  await page.context().close();
}
