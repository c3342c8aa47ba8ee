import { describe, expect, it } from 'vitest';
import { countdownParts, idleSchedule, MINUTE_MS } from './timing.ts';

const last = Date.parse('2026-11-22T08:00:00Z');

describe('the idle schedule', () => {
  it('warns two minutes before the end, and ends a minute before the server may', () => {
    // 30 minutes idle: the server keeps the session at least until last + 29 min (it slides once a minute).
    expect(idleSchedule(last, 30)).toEqual({ warnAt: last + 27 * MINUTE_MS, endAt: last + 29 * MINUTE_MS });
  });

  it('shortens the warning for short idle times, so that a keep-alive always slides the expiry', () => {
    expect(idleSchedule(last, 3)).toEqual({ warnAt: last + 65_000, endAt: last + 2 * MINUTE_MS });
    for (let minutes = 3; minutes <= 24 * 60; minutes++) {
      const { warnAt, endAt } = idleSchedule(last, minutes);
      // The server slides only when a minute has passed since its last touch: by the warning it has.
      expect(warnAt! - last).toBeGreaterThanOrEqual(MINUTE_MS + 5_000);
      expect(endAt - warnAt!).toBeLessThanOrEqual(2 * MINUTE_MS);
      expect(endAt).toBeLessThanOrEqual(last + (minutes - 1) * MINUTE_MS);
    }
  });

  it('gives no warning when the idle time is too short for one', () => {
    expect(idleSchedule(last, 2)).toEqual({ warnAt: null, endAt: last + 2 * MINUTE_MS });
    expect(idleSchedule(last, 1).warnAt).toBeNull();
  });
});

describe('the countdown', () => {
  it('shows whole seconds rounded up and stops at 0:00', () => {
    expect(countdownParts(120_000)).toEqual({ minutes: 2, seconds: 0 });
    expect(countdownParts(119_001)).toEqual({ minutes: 2, seconds: 0 });
    expect(countdownParts(119_000)).toEqual({ minutes: 1, seconds: 59 });
    expect(countdownParts(500)).toEqual({ minutes: 0, seconds: 1 });
    expect(countdownParts(-20)).toEqual({ minutes: 0, seconds: 0 });
  });
});
