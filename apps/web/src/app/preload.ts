import type { Chunk } from './chunks.ts';
import { preloadOrder, type RouteDef } from './routes.ts';
import { idleScheduler, type IdleScheduler } from '../ui/idle-scheduler.ts';

/** The preloads and start-up's later work: within 2 s even on a busy page. */
export const whenIdle: IdleScheduler = idleScheduler(2000);

/** Resolves once the page's own load is over (the `load` event), at once if it already is. */
function afterLoad(doc: Document = document): Promise<void> {
  if (doc.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/**
 * Spec section 2's background preload of every page, in priority order, the current page first.
 * It waits for the first screen's load, then takes ONE page per idle period: each page costs a
 * task of its own (its module's evaluation, its style sheet), so no task grows long enough to
 * block input (Lighthouse's total blocking time counts every task over 50 ms, decision 030).
 * Returns a function that stops what is not started yet.
 */
export function preloadWhenIdle(
  current: RouteDef | undefined,
  {
    idle = whenIdle,
    loaded = afterLoad,
    chunks = preloadOrder(current),
  }: { idle?: IdleScheduler; loaded?: () => Promise<void>; chunks?: Chunk[] } = {},
): () => void {
  let stopped = false;
  let cancel = () => {};
  const next = (index: number) => {
    if (stopped || index >= chunks.length) return;
    cancel = idle(() => {
      chunks[index]!.load().then(
        () => next(index + 1),
        // A failed preload is retried when the page is opened, where its error is shown.
        () => next(index + 1),
      );
    });
  };
  void loaded().then(() => next(0));
  return () => {
    stopped = true;
    cancel();
  };
}
