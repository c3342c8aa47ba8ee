/** Runs a task when the browser has nothing else to do; returns a function that cancels it. */
export type IdleScheduler = (task: () => void) => () => void;

/**
 * An IdleScheduler whose tasks wait at most `timeoutMs` for an idle period, so a busy page (an
 * animation) cannot postpone them for ever. Without requestIdleCallback, a short timer.
 */
export function idleScheduler(timeoutMs: number): IdleScheduler {
  return (task) => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(task, { timeout: timeoutMs });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(task, 50);
    return () => window.clearTimeout(id);
  };
}
