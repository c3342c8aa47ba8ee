import { expectPath, expectVisible } from '../../test-support/e2e/pages.ts';
import { addExpiringParticipant } from '../../test-support/e2e/expiry.ts';
import type { ScreenKit } from './kit.ts';

/**
 * Points that expire (issue 19): home with the line under the balance, and the history with
 * "Points expiring", in each language and width, for a participant with points due in 20 days.
 */
export default async function scenes(kit: ScreenKit): Promise<void> {
  const { username } = await addExpiringParticipant(kit.databaseUrl, `expiring-${Date.now()}`);
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await kit.signIn(page, username);
      await kit.switchTo(page, locale);
      await expectVisible(page.locator('main .points__expiring'));
      await kit.shoot(page, `expiry-home-${locale.code}-${width}`);
      await page.locator('main .points__expiring a').click();
      await expectPath(page, '/activity-history');
      await expectVisible(page.getByRole('dialog').locator('.expiring'));
      await expectVisible(page.getByRole('dialog').locator('table'));
      await kit.shoot(page, `expiry-history-${locale.code}-${width}`);
      await page.context().close();
    }
  }
}
