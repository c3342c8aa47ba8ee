/**
 * The browser: /login cold and /home after sign-in (reload) in Chromium, measured inside the
 * page (Resource Timing, PerformanceObserver, a MutationObserver for the first meaningful
 * render: the login form's password field, or the balance on home).
 */
import type { BrowserContext } from 'playwright-core';
import { launchChromium, signIn } from '../../test-support/e2e/pages.ts';
import { median } from './history.ts';

export interface ScreenMetrics {
  /**
   * JavaScript the screen loads to show itself: requested before its first meaningful render, as
   * transferred (compressed when the server compresses), bytes. The budget's figure.
   */
  jsBytes: number;
  /**
   * All JavaScript within the settle time, the other screens' chunks that the app preloads when
   * idle after the first render (spec section 2's preload order) included.
   */
  jsBytesWithPreloads: number;
  /** CSS bodies as transferred, bytes. */
  cssBytes: number;
  /** Bytes over the wire (0 for what the browser cache served). */
  transferredBytes: number;
  requests: number;
  /** /api/ requests started before the first meaningful render. */
  apiBeforeRender: number;
  apiTotal: number;
  renderMs: number;
  lcpMs: number;
  cls: number;
  /** Sum over long tasks of their time beyond 50 ms (Lighthouse's TBT, without its FCP..TTI window). */
  blockingMs: number;
  /** What moved, for whoever fixes it: element, the shift's score, when. */
  shifted: string[];
  runs: number;
}

export interface BrowserResults {
  login: ScreenMetrics;
  home: ScreenMetrics;
}

const RUNS = 3;
const SETTLE_MS = 2000;
const LOGIN_READY = 'input[type="password"]';
const HOME_READY = '.points__balance, main a[href="/activity-history"]';

/** Installed before the page's own scripts on every navigation. */
const observe = (ready: string) => `
  window.__bench = { lcp: 0, cls: 0, render: 0, longTasks: [], shifted: [] };
  const describe = (node) => node && node.nodeType === 1 ? node.nodeName.toLowerCase() + (node.id ? '#' + node.id : '') + (typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\s+/).join('.') : '') : '';
  const po = (type, each) => { try { new PerformanceObserver((l) => l.getEntries().forEach(each)).observe({ type, buffered: true }); } catch {} };
  po('largest-contentful-paint', (e) => { window.__bench.lcp = e.startTime; });
  po('layout-shift', (e) => {
    if (e.hadRecentInput) return;
    window.__bench.cls += e.value;
    for (const source of e.sources || []) window.__bench.shifted.push(describe(source.node) + ' ' + e.value.toFixed(3) + ' at ' + Math.round(e.startTime) + ' ms');
  });
  po('longtask', (e) => { window.__bench.longTasks.push(e.duration); });
  const seen = () => {
    const el = document.querySelector(${JSON.stringify(ready)});
    if (!el || window.__bench.render) return false;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    window.__bench.render = performance.now();
    return true;
  };
  const mo = new MutationObserver(() => { if (seen()) mo.disconnect(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true });
`;

interface Sample {
  jsBytes: number;
  jsBytesWithPreloads: number;
  cssBytes: number;
  transferredBytes: number;
  requests: number;
  apiBeforeRender: number;
  apiTotal: number;
  renderMs: number;
  lcpMs: number;
  cls: number;
  blockingMs: number;
  shifted: string[];
}

async function sample(
  context: BrowserContext,
  ready: string,
  go: (page: import('playwright-core').Page) => Promise<void>,
): Promise<Sample> {
  const page = await context.newPage();
  try {
    await page.addInitScript(observe(ready));
    await go(page);
    await page.waitForFunction(() => (window as unknown as { __bench: { render: number } }).__bench.render > 0, undefined, {
      timeout: 30_000,
    });
    await page.waitForTimeout(SETTLE_MS);
    return await page.evaluate(() => {
      const bench = (window as unknown as { __bench: { lcp: number; cls: number; render: number; longTasks: number[]; shifted: string[] } })
        .__bench;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const path = (r: PerformanceResourceTiming) => new URL(r.name).pathname;
      const sum = (list: PerformanceResourceTiming[], key: 'encodedBodySize' | 'transferSize') =>
        list.reduce((total, r) => total + r[key], 0);
      const js = resources.filter((r) => /\.m?js$/.test(path(r)));
      const css = resources.filter((r) => /\.css$/.test(path(r)));
      const api = resources.filter((r) => path(r).startsWith('/api/'));
      return {
        jsBytes: sum(
          js.filter((r) => r.startTime < bench.render),
          'encodedBodySize',
        ),
        jsBytesWithPreloads: sum(js, 'encodedBodySize'),
        cssBytes: sum(css, 'encodedBodySize'),
        transferredBytes: sum(resources, 'transferSize') + (navigation?.transferSize ?? 0),
        requests: resources.length + 1,
        apiBeforeRender: api.filter((r) => r.startTime < bench.render).length,
        apiTotal: api.length,
        renderMs: Math.round(bench.render),
        lcpMs: Math.round(bench.lcp),
        cls: Math.round(bench.cls * 1000) / 1000,
        blockingMs: Math.round(bench.longTasks.reduce((total, d) => total + Math.max(0, d - 50), 0)),
        shifted: [...new Set(bench.shifted)].slice(0, 6),
      };
    });
  } finally {
    await page.close();
  }
}

function summarise(samples: Sample[]): ScreenMetrics {
  const last = samples[samples.length - 1]!;
  const mid = (key: Exclude<keyof Sample, 'shifted'>) => median(samples.map((s) => s[key]));
  return {
    ...last,
    renderMs: mid('renderMs'),
    lcpMs: mid('lcpMs'),
    // The worst run: a shift that happens one time in three is still a shift.
    cls: Math.max(...samples.map((s) => s.cls)),
    blockingMs: mid('blockingMs'),
    apiBeforeRender: Math.max(...samples.map((s) => s.apiBeforeRender)),
    shifted: [...new Set(samples.flatMap((s) => s.shifted.map((line) => line.replace(/ at \d+ ms$/, ''))))].slice(0, 6),
    runs: samples.length,
  };
}

export async function runBrowser(baseUrl: string, log: (line: string) => void): Promise<BrowserResults> {
  const browser = await launchChromium();
  try {
    const logins: Sample[] = [];
    const homes: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      // A new context each run: an empty cache and no session (cold).
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 412, height: 823 } });
      try {
        logins.push(await sample(context, LOGIN_READY, async (page) => void (await page.goto('/login'))));
        homes.push(
          await sample(context, HOME_READY, async (page) => {
            await signIn(page, 'demo');
            // Wait for the app to settle on home, then measure the reload of a signed-in page.
            await page.locator(HOME_READY).first().waitFor();
            await page.evaluate(() => {
              (window as unknown as { __bench: { render: number } }).__bench.render = 0;
            });
            await page.reload();
          }),
        );
      } finally {
        await context.close();
      }
    }
    const results = { login: summarise(logins), home: summarise(homes) };
    for (const [name, m] of Object.entries(results)) {
      log(
        `${name}: JS ${m.jsBytes} B (${m.jsBytesWithPreloads} B with preloads), CSS ${m.cssBytes} B, ${m.requests} requests, ${m.apiBeforeRender} API before render, LCP ${m.lcpMs} ms, CLS ${m.cls}${m.shifted.length > 0 ? ` (${m.shifted.join('; ')})` : ''}`,
      );
    }
    return results;
  } finally {
    await browser.close();
  }
}
