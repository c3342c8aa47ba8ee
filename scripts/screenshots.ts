/**
 * `npm run screenshots`: login and home at 375px and 1280px, in en-US and ar, plus a modal
 * over home, written to ./screenshots/. Runs the real server on a throwaway database, the
 * same way as the browser tests (their harness is reused here).
 *   --build        rebuild the web app first (otherwise only when apps/web/dist is missing)
 *   --only=a,b     after the core screens, only these capabilities' scenes (scripts/screens/)
 *   --core=false   skip the core screens (login, home, errors)
 *   --console=false  skip the staff console's screens; otherwise its browser stories run with
 *                  CONSOLE_SCREENSHOTS=1 and write every screen at 1280 and 768 px into
 *                  ./screenshots/console/ (`npm test` runs the same stories and writes none; decision 088)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuild, ROOT, startPortalServer } from '../test-support/e2e/server.ts';
import { rewardsCli } from '../test-support/e2e/operator.ts';
import { chooseLanguage, DEMO_PASSWORD, expectPath, expectVisible, launchChromium, loginForm, signIn } from '../test-support/e2e/pages.ts';
import { ensureSystemPackages, requirements } from './lib/system.ts';
import type { ScreenKit } from './screens/kit.ts';
import activityScenes from './screens/activity.ts';
import otsScenes from './screens/ots.ts';
import shopsScenes from './screens/shops.ts';
import profileScenes from './screens/profile.ts';
import contentScenes from './screens/content.ts';
import extrasScenes from './screens/extras.ts';
import catalogScenes from './screens/catalog.ts';
import accountScenes from './screens/account.ts';
import ssoScenes from './screens/sso.ts';
import launchAsScenes from './screens/launch-as.ts';
import neighbourScenes from './screens/neighbour.ts';
import expiryScenes from './screens/expiry.ts';

const OUT = join(ROOT, 'screenshots');
const WIDTHS = [375, 1280];
// en-US first: choosing ar after sign-in also stores it as the user's language.
const LOCALES = [
  { code: 'en-US', name: /english/i },
  { code: 'ar', name: /العربية|arabic/i },
];

ensureSystemPackages([requirements.chromium, requirements.arabicFont]);
ensureWebBuild(process.argv.includes('--build'));
mkdirSync(OUT, { recursive: true });

const server = await startPortalServer();
const browser = await launchChromium();
const written: string[] = [];
try {
  if (!process.argv.includes('--core=false')) {
    for (const locale of LOCALES) {
      for (const width of WIDTHS) {
        const login = await newPage(browser, width);
        await login.goto('/login');
        await expectPath(login, '/login');
        await switchTo(login, locale);
        await expectVisible(login.locator('main input[type=password]')); // the page, not its loading state
        await shoot(login, `login-${locale.code}-${width}`);
        await login.context().close();

        // A fresh page signs in with the default (English) form, then switches in the header.
        const page = await newPage(browser, width);
        await signIn(page);
        await switchTo(page, locale);
        await expectVisible(page.locator('main a[href="/activity-history"]')); // the balance
        await shoot(page, `home-${locale.code}-${width}`);

        if (width === 1280) {
          await page
            .getByRole('contentinfo')
            .getByRole('link', { name: /faq|الأسئلة/i })
            .click();
          await expectVisible(page.getByRole('dialog'));
          // The questions come after the dialog opens; a busy machine can take longer than
          // networkidle's half second to start fetching them.
          await page.getByRole('dialog').locator('.ui-loading').waitFor({ state: 'detached', timeout: 15_000 });
          await shoot(page, `home-faqs-modal-${locale.code}-${width}`);
        }
        await page.context().close();
      }
    }

    // The other states a participant meets, at desktop width in English.
    for (const [name, username] of [
      ['home-spent', 'spent'],
      ['home-newbie', 'newbie'],
    ] as const) {
      const page = await newPage(browser, 1280);
      await signIn(page, username);
      await shoot(page, `${name}-en-US-1280`);
      await page.context().close();
    }
    for (const [name, username, password] of [
      ['login-wrong-password', 'demo', 'wrong-password'],
      ['login-pending', 'pending', DEMO_PASSWORD],
    ] as const) {
      const page = await newPage(browser, 1280);
      await page.goto('/login');
      const form = loginForm(page);
      await form.username.fill(username);
      await form.password.fill(password);
      await form.submit.click();
      await expectVisible(page.getByRole('alert').or(page.getByRole('status')).first());
      await shoot(page, `${name}-en-US-1280`);
      await page.context().close();
    }
    const errorPage = await newPage(browser, 1280);
    await errorPage.goto('/error');
    await expectVisible(errorPage.getByRole('dialog'));
    await shoot(errorPage, 'error-en-US-1280');
    await errorPage.context().close();
  }

  // Each capability's own screens (scripts/screens/).
  const kit: ScreenKit = {
    browser,
    widths: WIDTHS,
    locales: LOCALES,
    newPage: (width) => newPage(browser, width),
    signIn: (page, username) => signIn(page, username),
    switchTo,
    shoot,
    rewards: (args) => rewardsCli(server.databaseUrl, args),
    databaseUrl: server.databaseUrl,
  };
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const capabilities = {
    activity: activityScenes,
    ots: otsScenes,
    shops: shopsScenes,
    profile: profileScenes,
    content: contentScenes,
    extras: extrasScenes,
    account: accountScenes,
    sso: ssoScenes,
    'launch-as': launchAsScenes,
    neighbour: neighbourScenes,
    expiry: expiryScenes,
    // Last: it places real orders as Mona, which would change her balance in later scenes.
    catalog: catalogScenes,
  };
  for (const [name, scenes] of Object.entries(capabilities)) {
    if (!only || only.includes(name)) await scenes(kit);
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`Wrote ${written.length} screenshots:\n${written.map((f) => `  ${f}`).join('\n')}`);

// The console's screens are the ones its browser stories visit: the stories, run to write them.
if (!process.argv.includes('--console=false')) {
  console.log('The staff console: its browser stories, writing screenshots/console/ …');
  const stories = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--config', 'apps/console/e2e/vitest.config.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, CONSOLE_SCREENSHOTS: '1' },
  });
  if (stories.status !== 0) {
    console.error(`The console's stories failed (exit ${stories.status}): some of its screenshots may be missing or stale.`);
    process.exitCode = 1;
  } else console.log(`Wrote the console's screenshots into ${relative(ROOT, join(OUT, 'console'))}/`);
}

async function newPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width, height: width < 768 ? 812 : 900 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce', // no half-finished transitions in the pictures
  });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** Through the UI's own language selector, then waits for the page's direction to follow. */
async function switchTo(page: Page, locale: { code: string; name: RegExp }) {
  if ((await page.locator('html').getAttribute('lang')) === locale.code) return;
  await chooseLanguage(page, locale.name);
  await page.waitForFunction((code) => document.documentElement.lang === code, locale.code);
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle'); // lazy pages, bundles and the logo are in
  await page.evaluate(() => document.fonts.ready);
  // Playwright scrolls to reach what it clicks (a button under the cookie notice); a full-page
  // picture of a scrolled page draws the sticky header mid-page, which no participant sees.
  await page.evaluate(() => window.scrollTo(0, 0));
  const file = join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  written.push(relative(ROOT, file));
}
