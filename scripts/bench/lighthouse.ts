/**
 * Lighthouse (mobile, its default) on /login cold and on /home signed in. Lighthouse drives a
 * Puppeteer page of the system Chromium: for /home the same tab first signs in (the session
 * lives in sessionStorage, per tab) and Lighthouse keeps the storage (disableStorageReset).
 */
import { navigation } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../apps/web/e2e/harness/pages.ts';
import { PASSWORD } from './fixtures.ts';

export interface LighthouseScores {
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  lcpMs: number | null;
  cls: number | null;
  tbtMs: number | null;
  /** Audits below full score in the accessibility and best-practices categories. */
  failing: string[];
  /** Every run's performance score; the figures above are the median run's. */
  performanceRuns?: Array<number | null>;
}

export type LighthouseResults = { login: LighthouseScores; home: LighthouseScores } | { error: string };

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

type Lhr = NonNullable<Awaited<ReturnType<typeof navigation>>>['lhr'];

function scores(lhr: Lhr): LighthouseScores {
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    return value === null || value === undefined ? null : Math.round(value * 100);
  };
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    return value === undefined ? null : Math.round(value * 1000) / 1000;
  };
  const failing = ['accessibility', 'best-practices'].flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${id}: ${ref.id}${detailOf(lhr.audits[ref.id]?.details)}`),
  );
  if (lhr.runtimeError) failing.unshift(`runtime error: ${lhr.runtimeError.code}`);
  for (const [id, audit] of Object.entries(lhr.audits)) {
    if (audit.scoreDisplayMode === 'error') failing.push(`error in ${id}: ${audit.errorMessage ?? ''}`);
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    failing,
  };
}

/** What an audit's table names (e.g. the inspector issue's type), briefly. */
function detailOf(details: unknown): string {
  const items = (details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
  const names = items.map((item) => item.issueType ?? item.description ?? item.url).filter((v): v is string => typeof v === 'string');
  return names.length > 0 ? ` (${[...new Set(names)].slice(0, 3).join(', ')})` : '';
}

/** The run with the median performance score (Lighthouse's own advice for noisy machines). */
function medianRun(runs: LighthouseScores[]): LighthouseScores {
  const sorted = [...runs].sort((a, b) => (a.performance ?? -1) - (b.performance ?? -1));
  const chosen = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { ...chosen, performanceRuns: runs.map((r) => r.performance) };
}

export async function runLighthouse(baseUrl: string, log: (line: string) => void, runs = 3): Promise<LighthouseResults> {
  try {
    const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    try {
      const config = { extends: 'lighthouse:default' as const, settings: { onlyCategories: CATEGORIES } };
      const logins: LighthouseScores[] = [];
      const homes: LighthouseScores[] = [];
      for (let run = 0; run < runs; run++) {
        const page = await browser.newPage();
        // /login cold: Lighthouse clears the origin's storage and cache first (its default).
        const login = await navigation(page, `${baseUrl}/login`, { config });
        if (!login) throw new Error('Lighthouse returned no result for /login');
        logins.push(scores(login.lhr));

        await page.goto(`${baseUrl}/login`);
        await page.waitForSelector('input[name="username"]');
        await page.type('input[name="username"]', 'demo');
        await page.type('input[name="password"]', PASSWORD);
        // Enter rather than a click: on the phone-sized viewport the cookie notice may cover the button.
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => location.pathname === '/home', { timeout: 30_000 });
        // /home signed in: the same tab keeps its sessionStorage, so the storage must not be reset.
        const home = await navigation(page, `${baseUrl}/home`, { config, flags: { disableStorageReset: true } });
        if (!home) throw new Error('Lighthouse returned no result for /home');
        const homeScores = scores(home.lhr);
        if (!home.lhr.finalDisplayedUrl.endsWith('/home')) homeScores.failing.unshift(`not signed in: ended at ${home.lhr.finalDisplayedUrl}`);
        homes.push(homeScores);
        await page.close();
      }
      const results = { login: medianRun(logins), home: medianRun(homes) };
      for (const [name, s] of Object.entries(results)) {
        log(`Lighthouse ${name}: performance ${s.performance} (runs: ${s.performanceRuns?.map((p) => p ?? 'none').join(', ')}), accessibility ${s.accessibility}, best practices ${s.bestPractices}`);
      }
      return results;
    } finally {
      await browser.close();
    }
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'failed';
    log(`Lighthouse failed: ${message}`);
    return { error: message };
  }
}
