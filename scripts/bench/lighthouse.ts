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
      .map((ref) => `${id}: ${ref.id}`),
  );
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

export async function runLighthouse(baseUrl: string, log: (line: string) => void): Promise<LighthouseResults> {
  try {
    const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const config = { extends: 'lighthouse:default' as const, settings: { onlyCategories: CATEGORIES } };
      const login = await navigation(page, `${baseUrl}/login`, { config });
      if (!login) throw new Error('Lighthouse returned no result for /login');

      await page.goto(`${baseUrl}/login`);
      await page.waitForSelector('input[name="username"]');
      await page.type('input[name="username"]', 'demo');
      await page.type('input[name="password"]', PASSWORD);
      await Promise.all([page.waitForFunction(() => location.pathname === '/home', { timeout: 30_000 }), page.click('button[type="submit"]')]);
      const home = await navigation(page, `${baseUrl}/home`, { config, flags: { disableStorageReset: true } });
      if (!home) throw new Error('Lighthouse returned no result for /home');
      const signedIn = home.lhr.finalDisplayedUrl.endsWith('/home');
      const results = { login: scores(login.lhr), home: scores(home.lhr) };
      if (!signedIn) results.home.failing.unshift(`not signed in: ended at ${home.lhr.finalDisplayedUrl}`);
      for (const [name, s] of Object.entries(results)) {
        log(`Lighthouse ${name}: performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s.bestPractices}`);
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
