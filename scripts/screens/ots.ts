import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../test-support/e2e/server.ts';
import { expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit } from './kit.ts';

// Demo codes (apps/server/src/db/seed/demo-ots.ts): one unused code per picture of a success,
// since each success uses its code up; the screenshots run on a fresh database every time.
const UNUSED = ['ACME-3MXC-DV7Q', 'ACME-9PRT-K4HW', 'ACME-T7YE-NC3A', 'ACME-W6QJ-FX4M'];
const USED = 'ACME-Q4RD-9MTE';

const otsBox = (page: Page) => page.locator('section.ots');

async function redeem(page: Page, code: string): Promise<void> {
  const box = otsBox(page);
  await box.locator('input').fill(code);
  await box.locator('button[type=submit]').click();
}

/** Screens of the ots capability (issue 5): the box idle, after a success and after an error. */
export default async function scenes(kit: ScreenKit): Promise<void> {
  let next = 0;
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await kit.signIn(page);
      await kit.switchTo(page, locale);
      await expectVisible(otsBox(page));
      await shootBox(kit, page, `ots-idle-${locale.code}-${width}`);

      await redeem(page, UNUSED[next++ % UNUSED.length] ?? '');
      await expectVisible(otsBox(page).getByRole('status'));
      await shootBox(kit, page, `ots-success-${locale.code}-${width}`);

      // The used code's reply is held back a moment, to show the busy button first.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/v1.0/ots/redeem', async (route) => {
        await held;
        await route.continue();
      });
      await redeem(page, USED);
      await expectVisible(otsBox(page).locator('button[aria-busy=true]'));
      await shootBox(kit, page, `ots-busy-${locale.code}-${width}`, false);
      release();
      await expectVisible(otsBox(page).getByRole('alert'));
      await shootBox(kit, page, `ots-error-${locale.code}-${width}`);
      await page.context().close();
    }
  }
}

/** Full page, with the box scrolled into view so the picture shows what a person sees there. */
async function shootBox(kit: ScreenKit, page: Page, name: string, settle = true): Promise<void> {
  await otsBox(page).scrollIntoViewIfNeeded();
  // kit.shoot waits for the network to settle, which a held request never does.
  if (settle) await kit.shoot(page, name);
  else await page.screenshot({ path: join(ROOT, 'screenshots', `${name}.png`), fullPage: true });
}
