import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, expectPath, expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit } from './kit.ts';

const NEW_PASSWORD = 'Garden-Path-42';

/** Fills and submits the change-password form (found by autocomplete, so in any language). */
async function changePassword(page: Page, from: string, to: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[autocomplete="current-password"]').fill(from);
  await dialog.locator('input[autocomplete="new-password"]').nth(0).fill(to);
  await dialog.locator('input[autocomplete="new-password"]').nth(1).fill(to);
  await dialog.locator('.profile-password button[type="submit"]').click();
  await expectVisible(dialog.locator('.ui-alert--success'));
}

/**
 * Screens of the profile capability (issue 5): the modal with the rules panel partly ticked,
 * and after a successful password change, at each width and in each language.
 */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await kit.signIn(page, 'demo');
      await kit.switchTo(page, locale);
      await page.getByRole('banner').locator('a[href="/profile"]').first().click();
      await expectPath(page, '/profile');
      const dialog = page.getByRole('dialog');
      await expectVisible(dialog.locator('.pw-rules'));

      await dialog.locator('input[autocomplete="new-password"]').nth(0).fill('garden7');
      await kit.shoot(page, `profile-rules-${locale.code}-${width}`);

      await changePassword(page, DEMO_PASSWORD, NEW_PASSWORD);
      await kit.shoot(page, `profile-success-${locale.code}-${width}`);
      // Put the password back: the next scene signs in with the usual one.
      await changePassword(page, NEW_PASSWORD, DEMO_PASSWORD);

      // The language section after saving (the current language again, so the scene stays in it).
      await dialog.locator('.profile-locale button[type="submit"]').click();
      await expectVisible(dialog.locator('.profile__section--locale .ui-alert--success'));
      await dialog.locator('.profile__section--locale').scrollIntoViewIfNeeded();
      await kit.shoot(page, `profile-language-${locale.code}-${width}`);
      await page.context().close();
    }
  }
}
