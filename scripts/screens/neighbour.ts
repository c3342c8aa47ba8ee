import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, expectPath, expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit } from './kit.ts';

/**
 * The demo's second program, Nimbus Miles (issue 8), opened on its own origin: Chromium sends
 * nimbus.localhost to this machine, and the portal maps that host name to the client. Its
 * default language is French, so the form is found by its fields, not by English labels.
 */
async function openNimbus(page: Page, path: string): Promise<void> {
  await page.goto('/login'); // the screenshot server's own address gives the port
  const port = new URL(page.url()).port;
  await page.goto(`http://nimbus.localhost:${port}${path}`);
}

async function signInNimbus(page: Page, username: string): Promise<void> {
  await openNimbus(page, '/login');
  await page.locator('main input[autocomplete=username]').fill(username);
  await page.locator('main input[autocomplete=current-password]').fill(DEMO_PASSWORD);
  await page.locator('main button[type=submit]').click();
  await expectPath(page, '/home');
}

export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const width of kit.widths) {
    const login = await kit.newPage(width);
    await openNimbus(login, '/login');
    await expectVisible(login.locator('main input[type=password]'));
    await kit.shoot(login, `neighbour-login-fr-FR-${width}`);
    await login.context().close();

    // Nimbus's "demo" is Noémie with 3,250 miles, not Acme's Dana with 12,500 points.
    const home = await kit.newPage(width);
    await signInNimbus(home, 'demo');
    await expectVisible(home.locator('main a[href="/activity-history"]'));
    await kit.shoot(home, `neighbour-home-fr-FR-${width}`);
    if (width === 1280) {
      await kit.switchTo(home, { code: 'en-US', name: /english/i });
      await expectVisible(home.locator('main a[href="/activity-history"]'));
      await kit.shoot(home, 'neighbour-home-en-US-1280');
    }
    await home.context().close();
  }
}
