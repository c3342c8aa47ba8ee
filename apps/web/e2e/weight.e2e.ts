// Issue 6 (decision 015), as a visitor and a participant observe it: the first screens come
// without waiting on API calls, and nothing on them moves once shown.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectVisible, loginForm, signIn, test } from './harness/browser.ts';

/** Sums every layout shift from the start of each document the page loads. */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number };
    w.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);

/** API calls the page makes from now on, as "METHOD /path". */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname.replace(/^\/api\/v[\d.]+/, '')}`);
  });
  return calls;
}

test('the login page shows with no API call and does not move', async ({ page }) => {
  await watchLayoutShifts(page);
  const calls = recordApiCalls(page);
  await page.goto('/login');
  await expectVisible(loginForm(page).submit);
  expect(calls).toEqual([]);
  // Past the loading overlay's fade, the page transition and the cookie notice's slide.
  await page.waitForTimeout(1500);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.01);
});

test('a reload of home asks for the user once before the balance shows, and does not move', async ({ page }) => {
  await watchLayoutShifts(page);
  await signIn(page, 'newbie');
  const calls = recordApiCalls(page);
  await page.reload();
  // newbie has never earned: the points section greets without a balance link.
  await expectVisible(page.getByRole('main').locator('.points__message'));
  expect([...calls]).toEqual(['GET /user']);
  await page.waitForTimeout(1500);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.01);
});

test('after home shows, every other page is fetched in the background, one after another', async ({ page }) => {
  await signIn(page, 'newbie');
  const scripts: string[] = [];
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.match(/^\/assets\/([A-Za-z]+)Page-[\w-]+\.js$/)?.[1];
    if (name) scripts.push(name);
  });
  await page.reload();
  await expectVisible(page.getByRole('main').locator('.points__message'));
  // The last pages of the spec's preload order arrive once the browser has been idle a while.
  await expect.poll(() => scripts.includes('SsoLogout'), { timeout: 15_000 }).toBe(true);
  for (const name of ['Activation', 'Profile', 'ActivityHistory', 'Contact', 'Faqs', 'PrivacyNotice', 'Error', 'LaunchAs']) {
    expect(scripts).toContain(name);
  }
  // Spec order: activation (priority 3) before profile (4) before the activity history (8).
  expect(scripts.indexOf('Activation')).toBeLessThan(scripts.indexOf('Profile'));
  expect(scripts.indexOf('Profile')).toBeLessThan(scripts.indexOf('ActivityHistory'));
  // Opening a preloaded page shows it at once, without a loading spinner in between.
  await page.evaluate(() => {
    const w = window as unknown as { sawSpinner: boolean };
    w.sawSpinner = false;
    new MutationObserver(() => {
      if (document.querySelector('.route-loading')) w.sawSpinner = true;
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page.getByRole('link', { name: 'Profile', exact: true }).first().click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/profile');
  // The profile opens as a dialog over home.
  await expectVisible(page.getByRole('dialog', { name: 'Your profile' }));
  expect(await page.evaluate(() => (window as unknown as { sawSpinner: boolean }).sawSpinner)).toBe(false);
});
