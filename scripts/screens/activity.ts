import type { Page } from 'playwright-core';
import { expectPath, expectVisible } from '../../apps/web/e2e/harness/pages.ts';
import type { ScreenKit } from './kit.ts';

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

  // Nina never earned anything: home has no balance link, so she opens the page directly.
  const page = await kit.newPage(1280);
  await kit.signIn(page, 'newbie');
  await page.goto('/activity-history');
  await expectVisible(page.getByRole('dialog').locator('.activity__empty'));
  await kit.shoot(page, 'activity-empty-en-US-1280');
  await page.context().close();
}
