/**
 * The vitest side of the browser tests: one Chromium per worker (the run has one worker, and its
 * files share it: isolate is off in the e2e configs), a fresh context (cookies, storage) per
 * test, and the axe check.
 */
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { expect, inject, test as base } from 'vitest';
import { launchChromium } from './pages.ts';
import { makeCodes, makeParticipant, type Participant, type ParticipantOptions } from './participants.ts';

export * from './pages.ts';
export type { Participant } from './participants.ts';

/**
 * A participant of the story's own on the shared server (decision 071): any story that signs
 * someone in to change or count something makes one, so nobody else's balance, sessions,
 * counters or language move under it.
 */
export function newParticipant(options: ParticipantOptions = {}): Promise<Participant> {
  return makeParticipant(inject('databaseUrl'), options);
}

/** On-the-spot codes of the story's own (a new batch on the shared server): the plain codes. */
export function newCodes(count: number, value: number): Promise<string[]> {
  return makeCodes(inject('databaseUrl'), count, value);
}

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

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Fails on serious or critical axe violations (WCAG 2.1 A and AA rules), listing each.
 *
 * axe-core itself, injected once per document and run there: @axe-core/playwright's builder
 * injects the 600 kB script again and opens a page of its own to gather the results on every
 * call, which measured 2 to 8 times the run itself and most of the browser tests' CPU spent on
 * accessibility (decision 060). Our pages have no frames, which is all the builder adds.
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Through evaluate, not a script tag: the pages' Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(
    (values) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] }),
    WCAG_21_AA,
  );
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
