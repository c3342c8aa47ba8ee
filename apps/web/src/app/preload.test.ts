import { describe, expect, it } from 'vitest';
import type { Chunk } from './chunks.ts';
import { preloadWhenIdle } from './preload.ts';
import { findRoute, preloadOrder, routes } from './routes.ts';

/**
 * Idle periods the test hands out one at a time, as a quiet browser would. `settled` is the
 * load the period started: preload reacts to it first (it subscribed first), so once the test's
 * await of it resumes, the next period has been asked for.
 */
function idlePeriods(settled: () => Promise<unknown>) {
  const waiting: Array<() => void> = [];
  return {
    idle: (task: () => void) => {
      waiting.push(task);
      return () => waiting.splice(waiting.indexOf(task), 1);
    },
    get waiting() {
      return waiting.length;
    },
    async runOne() {
      const task = waiting.shift();
      if (!task) return;
      task();
      await settled().catch(() => undefined);
    },
  };
}

function fakeChunks(names: string[], failing: string[] = []) {
  const loaded: string[] = [];
  let last: Promise<unknown> = Promise.resolve();
  const chunks = names.map((name): Chunk => ({
    Component: () => null,
    load: () => {
      loaded.push(name);
      const load = failing.includes(name) ? Promise.reject(new Error(name)) : Promise.resolve({ default: () => null });
      last = load;
      return load;
    },
  }));
  return { chunks, loaded, lastLoad: () => last };
}

describe('the background preload of every page (spec section 2)', () => {
  it('keeps the spec order with the current page first, each page once', () => {
    const order = preloadOrder(findRoute('/profile'));
    expect(order[0]).toBe(findRoute('/profile')!.chunk);
    expect(order[1]).toBe(findRoute('/login')!.chunk);
    expect(order[2]).toBe(findRoute('/home')!.chunk);
    expect(new Set(order).size).toBe(order.length);
    expect(order).toHaveLength(new Set(routes.map((r) => r.chunk)).size);
  });

  it('starts once the page has loaded and takes one page per idle period', async () => {
    const { chunks, loaded, lastLoad } = fakeChunks(['home', 'login', 'activation']);
    const periods = idlePeriods(lastLoad);
    let pageLoaded = () => {};
    const loadedPage = new Promise<void>((resolve) => (pageLoaded = resolve));
    preloadWhenIdle(undefined, { idle: periods.idle, loaded: () => loadedPage, chunks });

    // Nothing is asked for while the page is still loading.
    expect(periods.waiting).toBe(0);
    await Promise.resolve();
    expect(periods.waiting).toBe(0);
    pageLoaded();
    await loadedPage;
    expect(periods.waiting).toBe(1);
    expect(loaded).toEqual([]);

    await periods.runOne();
    expect(loaded).toEqual(['home']);
    await periods.runOne();
    expect(loaded).toEqual(['home', 'login']);
    await periods.runOne();
    expect(loaded).toEqual(['home', 'login', 'activation']);
    expect(periods.waiting).toBe(0);
  });

  it('goes on after a page that fails to load, and stops when cancelled', async () => {
    const { chunks, loaded, lastLoad } = fakeChunks(['a', 'b', 'c', 'd'], ['a']);
    const periods = idlePeriods(lastLoad);
    const pageLoad = Promise.resolve();
    const stop = preloadWhenIdle(undefined, { idle: periods.idle, loaded: () => pageLoad, chunks });
    await pageLoad;
    expect(periods.waiting).toBe(1);
    await periods.runOne();
    await periods.runOne();
    expect(loaded).toEqual(['a', 'b']);
    stop();
    expect(periods.waiting).toBe(0);
    await periods.runOne();
    expect(loaded).toEqual(['a', 'b']);
  });
});
