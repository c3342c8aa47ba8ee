/**
 * Chromium and the few page steps that both the browser tests and `npm run screenshots`
 * take. No vitest here, so plain scripts can import it.
 */
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox', // we run as root
  '--disable-gpu',
  // This machine's network is closed: without these Chromium keeps trying Google's hosts.
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

export const DEMO_PASSWORD = 'Rewards-2026!';

/**
 * Waits until the app's route is `path` (the app redirects on the client, after start-up). Not
 * `waitForURL`: it fails with ERR_ABORTED when a page load it watches is overtaken by the app's own
 * redirect, which is the very thing awaited here. Woken by each navigation, re-checked at least
 * every second, 30 s at most.
 */
export async function expectPath(page: Page, path: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (new URL(page.url()).pathname !== path) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`Expected the page at ${path}, but it is at ${page.url()}`);
    await page
      .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: Math.min(left, 1_000) })
      .catch(() => undefined); // a timeout only means: look again
  }
}

/** Waits for a locator to be visible; fails with the locator in the message otherwise. */
export async function expectVisible(locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'visible' });
}

export function loginForm(page: Page) {
  return {
    username: page.getByLabel(/user ?name|user id/i),
    password: page.getByLabel(/^password/i),
    submit: page.getByRole('button', { name: /sign in|log ?in/i }),
  };
}

/** Signs in through the login page, as a person would, and waits for home. */
export async function signIn(page: Page, username = 'demo', password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  const form = loginForm(page);
  await form.username.fill(username);
  await form.password.fill(password);
  await form.submit.click();
  await expectPath(page, '/home');
}

/** The sign-out control of the user bar (a link in the spec; a button is accepted too). */
export function signOutControl(page: Page): Locator {
  const name = /log ?out|sign ?out/i;
  return page.getByRole('link', { name }).or(page.getByRole('button', { name })).first();
}

/**
 * Picks a language in the header's language selector (a disclosure button whose list names
 * each language in its own language; a native <select> works too). `name` is that name.
 */
export async function chooseLanguage(page: Page, name: RegExp): Promise<void> {
  const label = /language|langue|اللغة/i;
  const selector = page
    .getByRole('combobox', { name: label })
    .or(page.getByRole('button', { name: label }))
    .first();
  if ((await selector.evaluate((el) => el.tagName)) === 'SELECT') {
    await selector.selectOption({ label: (await selector.locator('option').allTextContents()).find((t) => name.test(t)) ?? '' });
    return;
  }
  await selector.click();
  await page.getByRole('option', { name }).or(page.getByRole('button', { name })).first().click();
}

/** Closes the cookie notice if it shows: it covers the bottom of the page, footer included. */
export async function acknowledgeCookieNotice(page: Page): Promise<void> {
  const notice = page.getByRole('region', { name: /cookie/i });
  if (await notice.isVisible()) {
    await notice.getByRole('button').click();
    await notice.waitFor({ state: 'hidden' });
  }
}
