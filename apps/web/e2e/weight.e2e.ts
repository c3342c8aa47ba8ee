// Issue 6 (decision 015), as a visitor and a participant observe it: the first screens come
// without waiting on API calls, and nothing on them moves once shown.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectVisible, loginForm, newParticipant, signIn, test } from '../../../test-support/e2e/browser.ts';
import { ROOT } from '../../../test-support/e2e/server.ts';

type ShiftWatch = { layoutShift: number; layoutShiftObserver: PerformanceObserver; addShifts(entries: PerformanceEntryList): void };

/** Sums every layout shift from the start of each document the page loads. */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as ShiftWatch;
    w.layoutShift = 0;
    w.addShifts = (entries) => {
      for (const entry of entries as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.layoutShift += entry.value;
      }
    };
    w.layoutShiftObserver = new PerformanceObserver((list) => w.addShifts(list.getEntries()));
    w.layoutShiftObserver.observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts so far: after the next frame is drawn, those the observer has not delivered yet included. */
const layoutShift = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const w = window as unknown as ShiftWatch;
    w.addShifts(w.layoutShiftObserver.takeRecords());
    return w.layoutShift;
  });

/**
 * Waits until nothing more comes to the page by itself: no request for half a second (the
 * background preload of the other pages and their styles done), the loading overlay gone, fonts,
 * images and style sheets loaded, and every finite animation (the overlay's fade, the page
 * transition, the cookie notice's slide) finished. A shift after this would be a page moving
 * on its own.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 15_000 });
  await page.waitForFunction(
    () =>
      document.readyState === 'complete' &&
      document.querySelector('.ui-loading') === null &&
      document.fonts.status === 'loaded' &&
      [...document.images].every((image) => image.complete) &&
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet !== null) &&
      document
        .getAnimations()
        .every((animation) => animation.playState === 'finished' || animation.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * API calls of the next document the page loads, as "METHOD /path": recording starts when the
 * main frame commits to it after its document request, so nothing the document before it still
 * sent (a late call, a background preload) is counted.
 */
function recordApiCallsOfNextDocument(page: Page): string[] {
  const calls: string[] = [];
  let requested = false;
  let committed = false;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) requested = true;
    const url = new URL(request.url());
    if (committed && url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname.replace(/^\/api\/v[\d.]+/, '')}`);
  });
  page.on('framenavigated', (frame) => {
    if (requested && frame === page.mainFrame()) committed = true;
  });
  return calls;
}

/** Every page of the build, by its chunk's name (ActivationPage-….js: Activation). */
const PAGES = readdirSync(join(ROOT, 'apps', 'web', 'dist', 'assets'))
  .map((file) => /^([A-Za-z]+)Page-[\w-]+\.js$/.exec(file)?.[1])
  .filter((name): name is string => name !== undefined);

/**
 * The event "preloading finished": resolves, in the page's current document, once that
 * document's own resource timing (which no other document writes to) lists every page's chunk,
 * with the chunks in the order the document started them. 30 s at most, then it fails naming
 * what is missing.
 */
async function pagesPreloaded(page: Page): Promise<string[]> {
  const { names, finished } = await page.evaluate(
    (expected) =>
      new Promise<{ names: string[]; finished: boolean }>((resolve) => {
        const fetched = () =>
          performance
            .getEntriesByType('resource')
            .toSorted((a, b) => a.startTime - b.startTime)
            .map((entry) => /^\/assets\/([A-Za-z]+)Page-[\w-]+\.js$/.exec(new URL(entry.name).pathname)?.[1])
            .filter((name): name is string => name !== undefined);
        const done = (finished: boolean) => {
          observer.disconnect();
          clearTimeout(deadline);
          resolve({ names: fetched(), finished });
        };
        const observer = new PerformanceObserver(() => {
          if (expected.every((name) => fetched().includes(name))) done(true);
        });
        const deadline = setTimeout(() => done(false), 30_000);
        observer.observe({ type: 'resource', buffered: true });
      }),
    PAGES,
  );
  expect(finished, `preloading finished; fetched ${names.join(', ')}`).toBe(true);
  return names;
}

test('the login page shows with no API call and does not move', async ({ page }) => {
  await watchLayoutShifts(page);
  const calls = recordApiCallsOfNextDocument(page);
  await page.goto('/login');
  await expectVisible(loginForm(page).submit);
  expect(calls).toEqual([]);
  await settled(page);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.01);
});

test('a reload of home asks for the user once before the balance shows, and does not move', async ({ page }) => {
  await watchLayoutShifts(page);
  await signIn(page, (await newParticipant()).username);
  const calls = recordApiCallsOfNextDocument(page);
  await page.reload();
  // Someone who has never earned: the points section greets without a balance link.
  await expectVisible(page.getByRole('main').locator('.points__message'));
  expect([...calls]).toEqual(['GET /user']);
  await settled(page);
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.01);
});

test('after home shows, every other page is fetched in the background, one after another', async ({ page }) => {
  await signIn(page, (await newParticipant()).username);
  const signedIn = await page.evaluate(() => performance.timeOrigin);
  await page.reload();
  await expectVisible(page.getByRole('main').locator('.points__message'));
  // The reloaded document's own fetches (not the one before it, which had its own preload under way).
  expect(await page.evaluate(() => performance.timeOrigin)).not.toBe(signedIn);
  const scripts = await pagesPreloaded(page);
  for (const name of ['Activation', 'Profile', 'ActivityHistory', 'Contact', 'Faqs', 'PrivacyNotice', 'Error', 'LaunchAs', 'SsoLogout']) {
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
