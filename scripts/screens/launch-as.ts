import type { Browser, Page } from 'playwright-core';
import { databaseConfigFromUrl } from '../../apps/server/src/config.ts';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { expectPath, expectVisible } from '../../test-support/e2e/pages.ts';
import { startPortalServer, type PortalServer } from '../../test-support/e2e/server.ts';
import { rewardsCli } from '../../test-support/e2e/operator.ts';
import type { ScreenKit } from './kit.ts';

/**
 * Screens of issue 9 (launch-as): Dana's home as support sees it (banner, launched-as label,
 * orange-on-dark user bar, spending buttons off) at both widths in English and Arabic, and the
 * link's error screens. Its own server: the kit has no database to run the command against.
 */
export default async function scenes(kit: ScreenKit): Promise<void> {
  const server = await startPortalServer();
  try {
    for (const locale of kit.locales) {
      for (const width of kit.widths) {
        const page = await newPage(kit.browser, server, width);
        await page.goto(await launchLink(server));
        await expectPath(page, '/home');
        if (locale.code !== 'en-US') await kit.switchTo(page, locale);
        await expectVisible(page.locator('.admin-banner'));
        await expectVisible(page.locator('main a[href="/activity-history"]'));
        await kit.shoot(page, `launch-as-home-${locale.code}-${width}`);
        await page.context().close();
      }
    }

    // The error screens, in English at both widths and in Arabic on a phone.
    const used = await launchLink(server);
    const first = await newPage(kit.browser, server, 1280);
    await first.goto(used);
    await expectPath(first, '/home');
    await first.context().close();
    const expired = await launchLink(server);
    await expire(server, new URL(expired).searchParams.get('token') ?? '');

    for (const [name, path] of [
      ['no-token', '/launch-as'],
      ['used', used],
      ['expired', expired],
    ] as const) {
      for (const width of kit.widths) {
        const page = await newPage(kit.browser, server, width);
        await page.goto(path.replace(server.baseUrl, ''));
        await expectVisible(page.getByRole('alert'));
        await kit.shoot(page, `launch-as-error-${name}-en-US-${width}`);
        await page.context().close();
      }
    }
    const arabic = kit.locales.find((l) => l.code === 'ar');
    if (arabic) {
      const page = await newPage(kit.browser, server, 375);
      await page.goto('/login');
      await kit.switchTo(page, arabic);
      await page.goto('/launch-as');
      await expectVisible(page.getByRole('alert'));
      await kit.shoot(page, 'launch-as-error-no-token-ar-375');
      await page.context().close();
    }
  } finally {
    await server.stop();
  }
}

async function launchLink(server: PortalServer): Promise<string> {
  const out = await rewardsCli(server.databaseUrl, [
    'launch-as',
    'demo',
    '--client',
    'acme',
    '--admin',
    'screens',
    '--reason',
    'screenshots',
    '--base-url',
    server.baseUrl,
    '--json',
  ]);
  return (JSON.parse(out) as { url: string }).url;
}

/** Puts a link's expiry in the past (rather than waiting 2 minutes). */
async function expire(server: PortalServer, token: string): Promise<void> {
  const { createHash } = await import('node:crypto');
  const db = createDatabase(databaseConfigFromUrl(server.databaseUrl));
  try {
    const hash = createHash('sha256').update(token).digest('hex');
    await db
      .updateTable('launch_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hash)
      .execute();
  } finally {
    await db.destroy();
  }
}

async function newPage(browser: Browser, server: PortalServer, width: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width, height: width < 768 ? 812 : 900 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}
