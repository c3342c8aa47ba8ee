/**
 * Big histories: bigspender's 10,000 entries. The server's time for the statement (a few
 * sequential requests on loopback, median), and in Chromium the time from a click on a column
 * header, a date filter change and a click on Next page (real input) to the frame showing the
 * result, as the browser's Event Timing reports it.
 */
import type { Locator, Page } from 'playwright-core';
import { acknowledgeCookieNotice, launchChromium, signIn as signInPage } from '../../test-support/e2e/pages.ts';
import type { LoadTiming } from './api.ts';
import { apiHeaders, signIn } from './fixtures.ts';
import { runStatementLoad, type StatementLoadResults } from './statement-load.ts';

export interface HistoryResults {
  statement: { medianMs: number; samplesMs: number[]; bytes: number; entries: number };
  /** `GET user`'s p99 alone and while bigspender's statement is pulled (decision 044), the puller at nice 19 (094); older results lack it. */
  underLoad?: StatementLoadResults | { error: string };
  /** The same with the puller at nice 0, as measured before decision 094: its reading competes with the portal for the CPU. No budget. */
  underLoadSharedCpu?: StatementLoadResults | { error: string };
  browser:
    { sortMs: number; filterMs: number; pageMs: number; samples: { sort: number[]; filter: number[]; page: number[] } } | { error: string };
}

const REPEAT = 5;

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round1 = (n: number) => Math.round(n * 10) / 10;

export async function runHistory(baseUrl: string, timing: LoadTiming, log: (line: string) => void): Promise<HistoryResults> {
  const statement = await statementTime(baseUrl);
  log(`bigspender's statement: ${statement.medianMs} ms median (${statement.entries} entries, ${statement.bytes} bytes)`);
  const statementLoad = async (pullerNice?: number): Promise<StatementLoadResults | { error: string }> => {
    try {
      return await runStatementLoad(baseUrl, timing, log, { pullerNice });
    } catch (error) {
      const failed = { error: (error as Error).message.split('\n')[0] ?? 'failed' };
      log(`GET user beside the statement failed: ${failed.error}`);
      return failed;
    }
  };
  const underLoad = await statementLoad();
  const underLoadSharedCpu = await statementLoad(0);
  let browser: HistoryResults['browser'];
  try {
    browser = await interactions(baseUrl);
    if ('sortMs' in browser)
      log(`history in Chromium: sort ${browser.sortMs} ms, filter ${browser.filterMs} ms, page ${browser.pageMs} ms`);
  } catch (error) {
    browser = { error: (error as Error).message.split('\n')[0] ?? 'failed' };
    log(`history in Chromium failed: ${browser.error}`);
  }
  return { statement, underLoad, underLoadSharedCpu, browser };
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
 * Installed once in the page: Event Timing entries of trusted input (what INP is made of). An
 * entry's duration runs from the input to the next frame the display compositor presented, so it
 * includes the style, layout, paint and compositing the change caused (decision 033: the modal's
 * old backdrop blur cost 37-70 ms a frame there, which in-page timing never saw). Chromium reports
 * only entries of 16 ms or more, rounded to 8 ms.
 */
async function observeInteractions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: { start: number; duration: number }[] = [];
    (window as unknown as { benchEvents: typeof seen }).benchEvents = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEventTiming[])
        if (entry.interactionId) seen.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  });
}

/** The Event Timing API's floor: an interaction it did not report took less than this. */
const EVENT_TIMING_FLOOR_MS = 16;

/**
 * Does `act` (real, trusted input through Playwright), waits until the dialog's content changed, then
 * for the input's Event Timing entries; resolves with the interaction's duration (input to the
 * frame presented), the floor when Chromium reported none (faster than 16 ms), or NaN when the
 * table did not change within 5 s. Samples are spaced so one does not carry the last one's frame.
 */
async function interactionMs(page: Page, table: Locator, act: () => Promise<void>): Promise<number> {
  const since = await table.evaluate((element) => {
    const marker = window as unknown as { benchTableChanged?: number };
    delete marker.benchTableChanged;
    const observer = new MutationObserver(() => {
      marker.benchTableChanged = performance.now();
      observer.disconnect();
    });
    observer.observe(element.closest('[role="dialog"]') ?? element, { subtree: true, childList: true, characterData: true });
    return performance.now();
  });
  await act();
  try {
    await page.waitForFunction(() => (window as unknown as { benchTableChanged?: number }).benchTableChanged !== undefined, undefined, {
      timeout: 5000,
    });
  } catch {
    return Number.NaN;
  }
  // Entries are delivered after the frame is presented; leave time for it, then read them.
  await page.waitForTimeout(300);
  const durations = await page.evaluate(
    (from) =>
      (window as unknown as { benchEvents: { start: number; duration: number }[] }).benchEvents
        .filter((e) => e.start >= from)
        .map((e) => e.duration),
    since,
  );
  return durations.length === 0 ? EVENT_TIMING_FLOOR_MS : Math.max(...durations);
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
    await dialog
      .getByText(/of 10,000 entries/)
      .first()
      .waitFor({ timeout: 30_000 });

    await observeInteractions(page);
    const table = dialog.locator('table').first();
    const sort: number[] = [];
    for (let i = 0; i < REPEAT + 1; i++)
      sort.push(
        await interactionMs(page, table, () =>
          dialog
            .getByRole('button', { name: /^Points/ })
            .first()
            .click(),
        ),
      );
    const pageChange: number[] = [];
    for (let i = 0; i < REPEAT + 1; i++)
      pageChange.push(await interactionMs(page, table, () => dialog.getByRole('button', { name: 'Next page' }).first().click()));
    // The date filter's month (decision 037: day, month and year parts) is a select: on a focused
    // select an arrow key picks the next month, one trusted key, one filter change. The first day
    // is typed two and a half years back, so every step keeps rows.
    const [year = '', month = '', day = ''] = isoDay(900).split('-');
    const from = dialog.getByRole('group', { name: 'From', exact: true });
    await from.getByLabel('Day').fill(String(Number(day)));
    await from.getByLabel('Month').selectOption(String(Number(month)));
    await from.getByLabel('Year').fill(year);
    await table.getByRole('row').nth(1).waitFor();
    await from.getByLabel('Month').focus();
    const filter: number[] = [];
    for (let i = 0; i < REPEAT + 1; i++) filter.push(await interactionMs(page, table, () => page.keyboard.press('ArrowDown')));
    // The first of each is the cold one; the median of all keeps it from deciding alone.
    const [s, p, f] = [sort, pageChange, filter].map((list) => list.map(round1));
    return {
      sortMs: round1(median(s!)),
      filterMs: round1(median(f!)),
      pageMs: round1(median(p!)),
      samples: { sort: s!, filter: f!, page: p! },
    };
  } finally {
    await browser.close();
  }
}
