/**
 * The vitest side of the browser tests: one Chromium per worker (the run has one worker, and its
 * files share it: isolate is off in the e2e configs), a fresh context (cookies, storage) per
 * test, and the axe check.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { expect, inject, test as base } from 'vitest';
import { launchChromium } from './pages.ts';

export * from './pages.ts';

/**
 * `test` with a `page` in a fresh context at the portal's URL. Reduced motion: the app then
 * skips its transitions, so nothing is caught half-faded (axe's contrast check included).
 * An uncaught error in the page fails the test.
 */
export const test = base
  .extend('browser', { scope: 'worker' }, async ({}, { onCleanup }) => {
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend('page', async ({ browser }, { onCleanup }) => {
    const context = await browser.newContext({ baseURL: inject('baseUrl'), locale: 'en-US', reducedMotion: 'reduce' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    onCleanup(async () => {
      await context.close();
      expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    });
    return page;
  });

/** Fails on serious or critical axe violations (WCAG 2.1 A and AA rules), listing each. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

const pageErrors = new WeakMap<Page, string[]>();

/**
 * A page in a new context on a portal of the test file's own (startPortalServer), for files that
 * cannot use `test`'s page; closePage fails the test when the page had an uncaught error.
 */
export async function openPageOn(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', reducedMotion: 'reduce' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  pageErrors.set(page, errors);
  return page;
}

/** Closes a page of openPageOn; an uncaught error in it fails the test. */
export async function closePage(page: Page): Promise<void> {
  await page.context().close();
  expect(pageErrors.get(page), 'uncaught errors in the page').toEqual([]);
}
