/**
 * Big histories: bigspender's 10,000 entries. The server's time for the statement (a few
 * sequential requests on loopback, median), and in Chromium the time from a sort, a date filter
 * change and a page change to the table showing the result, measured inside the page.
 */
import type { Locator, Page } from 'playwright-core';
import { acknowledgeCookieNotice, launchChromium, signIn as signInPage } from '../../apps/web/e2e/harness/pages.ts';
import { apiHeaders, signIn } from './fixtures.ts';

export interface HistoryResults {
  statement: { medianMs: number; samplesMs: number[]; bytes: number; entries: number };
  browser: { sortMs: number; filterMs: number; pageMs: number; samples: { sort: number[]; filter: number[]; page: number[] } } | { error: string };
}

const REPEAT = 5;

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round1 = (n: number) => Math.round(n * 10) / 10;

export async function runHistory(baseUrl: string, log: (line: string) => void): Promise<HistoryResults> {
  const statement = await statementTime(baseUrl);
  log(`bigspender's statement: ${statement.medianMs} ms median (${statement.entries} entries, ${statement.bytes} bytes)`);
  let browser: HistoryResults['browser'];
  try {
    browser = await interactions(baseUrl);
    if ('sortMs' in browser) log(`history in Chromium: sort ${browser.sortMs} ms, filter ${browser.filterMs} ms, page ${browser.pageMs} ms`);
  } catch (error) {
    browser = { error: (error as Error).message.split('\n')[0] ?? 'failed' };
    log(`history in Chromium failed: ${browser.error}`);
  }
  return { statement, browser };
}

async function statementTime(baseUrl: string): Promise<HistoryResults['statement']> {
  const session = await signIn(baseUrl, 'bigspender');
  const url = `${baseUrl}/api/v1.0/user/account/statement?username=bigspender&locale=en-US`;
  const samplesMs: number[] = [];
  let bytes = 0;
  let entries = 0;
  for (let i = 0; i <= REPEAT; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers: apiHeaders(session) });
    const body = await response.arrayBuffer();
    const ms = performance.now() - start;
    if (response.status !== 200) throw new Error(`statement: ${response.status}`);
    if (i === 0) {
      // The first one warms up the process and the statement cache; not counted.
      bytes = body.byteLength;
      const json = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
      const list = Object.values(json).find((v) => Array.isArray(v)) as unknown[] | undefined;
      entries = list?.length ?? 0;
      continue;
    }
    samplesMs.push(round1(ms));
  }
  return { medianMs: round1(median(samplesMs)), samplesMs, bytes, entries };
}

/**
 * Runs `act` on the element in the page and resolves with the milliseconds until the table
 * body changed and the next frame came (the result is on screen), or NaN after 5 s.
 */
function timeToTable(target: Locator, act: 'click' | { value: string }): Promise<number> {
  return target.evaluate((element, action) => {
    const table = element.closest('[role="dialog"]')?.querySelector('table') ?? document.querySelector('table');
    return new Promise<number>((resolve) => {
      if (!table) return resolve(Number.NaN);
      let start = 0;
      const timer = setTimeout(() => {
        observer.disconnect();
        resolve(Number.NaN);
      }, 5000);
      const inBody = (node: Node | null) => !!node && (node.nodeName === 'TBODY' || node.nodeName === 'TR' || !!(node instanceof Element ? node : node.parentElement)?.closest('tbody'));
      const observer = new MutationObserver((records) => {
        if (!records.some((r) => inBody(r.target) || [...r.addedNodes].some(inBody))) return;
        observer.disconnect();
        clearTimeout(timer);
        // The next frame, then the task after it: the changed rows have been painted.
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      });
      observer.observe(table, { subtree: true, childList: true, characterData: true });
      start = performance.now();
      if (action === 'click') (element as HTMLElement).click();
      else {
        const input = element as HTMLInputElement;
        // React tracks the value: set it through the prototype's setter, then say it changed.
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, action.value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }
    });
  }, act);
}

function isoDay(daysAgo: number): string {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function interactions(baseUrl: string): Promise<HistoryResults['browser']> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    const page: Page = await context.newPage();
    await signInPage(page, 'bigspender');
    await acknowledgeCookieNotice(page);
    await page.goto('/activity-history');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/of 10,000 entries/).first().waitFor({ timeout: 30_000 });

    const sort: number[] = [];
    for (let i = 0; i < REPEAT + 1; i++) sort.push(await timeToTable(dialog.getByRole('button', { name: /^Points/ }).first(), 'click'));
    const pageChange: number[] = [];
    for (let i = 0; i < REPEAT + 1; i++) pageChange.push(await timeToTable(dialog.getByRole('button', { name: 'Next page' }).first(), 'click'));
    const filter: number[] = [];
    for (let i = 0; i < REPEAT + 1; i++) filter.push(await timeToTable(dialog.getByLabel('From').first(), { value: isoDay(900 - i * 60) }));
    // The first of each is the cold one; the median of all keeps it from deciding alone.
    const [s, p, f] = [sort, pageChange, filter].map((list) => list.map(round1));
    return { sortMs: round1(median(s!)), filterMs: round1(median(f!)), pageMs: round1(median(p!)), samples: { sort: s!, filter: f!, page: p! } };
  } finally {
    await browser.close();
  }
}
