import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWakeLoop, type WakeLoop } from './wake-loop.ts';

/** A wake-up signal the test fires by hand. */
function signal() {
  const listeners = new Set<() => void>();
  return {
    subscribe: (wake: () => void) => {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
    fire: () => listeners.forEach((wake) => wake()),
    listeners,
  };
}

/** A promise the test settles, to hold a pass open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the wake loop (no database)', () => {
  let loop: WakeLoop | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(async () => {
    await loop?.stop();
    vi.useRealTimers();
  });

  it('runs a pass at start, one more after a signal during a pass (never two at once), then every pollMs', async () => {
    const wake = signal();
    let passes = 0;
    let running = 0;
    let overlapped = false;
    let hold = gate();
    loop = startWakeLoop({
      pass: async () => {
        passes += 1;
        running += 1;
        if (running > 1) overlapped = true;
        await hold.opened;
        running -= 1;
      },
      subscribe: wake.subscribe,
      pollMs: 1_000,
      onError: () => {},
    });
    expect(passes).toBe(1);
    wake.fire();
    wake.fire();
    hold.open();
    await loop.idle();
    // The two signals during the first pass asked for one more pass, not two.
    expect(passes).toBe(2);
    expect(overlapped).toBe(false);
    hold = gate();
    hold.open();
    await vi.advanceTimersByTimeAsync(1_000);
    await loop.idle();
    expect(passes).toBe(3);
  });

  it('repeats a pass at once while it says more is due, and stops repeating when stopped', async () => {
    const wake = signal();
    let passes = 0;
    loop = startWakeLoop({ pass: async () => ++passes < 4, subscribe: wake.subscribe, pollMs: 60_000, onError: () => {} });
    await loop.idle();
    expect(passes).toBe(4);
  });

  it('reports a failed pass and tries again at the next poll; stop unsubscribes and ends the polling', async () => {
    const wake = signal();
    const errors: unknown[] = [];
    let passes = 0;
    loop = startWakeLoop({
      pass: async () => {
        passes += 1;
        if (passes === 1) throw new Error('database away');
      },
      subscribe: wake.subscribe,
      pollMs: 5_000,
      onError: (error) => errors.push(error),
    });
    await loop.idle();
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5_000);
    await loop.idle();
    expect(passes).toBe(2);
    await loop.stop();
    expect(wake.listeners.size).toBe(0);
    wake.fire();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(passes).toBe(2);
  });
});
