import { describe, expect, it } from 'vitest';
import { badKeyThrottle } from './bad-key-throttle.ts';

class Throttled extends Error {}

const MINUTE = 60_000;

describe('the bad-key throttle (in memory, no database)', () => {
  it('throws the given error after 20 failures of an address within 15 minutes, for that address only, and forgets them after', () => {
    let now = 1_000;
    const throttle = badKeyThrottle(
      () => new Throttled('too many'),
      () => now,
    );
    for (let i = 0; i < 19; i += 1) throttle.recordFailure('192.0.2.1');
    expect(() => throttle.check('192.0.2.1')).not.toThrow();
    throttle.recordFailure('192.0.2.1');
    expect(() => throttle.check('192.0.2.1')).toThrow(Throttled);
    expect(() => throttle.check('192.0.2.2')).not.toThrow();
    now += 15 * MINUTE + 1;
    expect(() => throttle.check('192.0.2.1')).not.toThrow();
    // A new window starts with the next failure.
    throttle.recordFailure('192.0.2.1');
    expect(() => throttle.check('192.0.2.1')).not.toThrow();
  });

  it('counts the window from the first failure: later failures do not stretch it', () => {
    let now = 1_000;
    const throttle = badKeyThrottle(
      () => new Throttled('too many'),
      () => now,
    );
    for (let i = 0; i < 20; i += 1) {
      throttle.recordFailure('192.0.2.7');
      now += 30_000;
    }
    expect(() => throttle.check('192.0.2.7')).toThrow(Throttled);
    now = 1_000 + 15 * MINUTE + 1;
    expect(() => throttle.check('192.0.2.7')).not.toThrow();
  });

  it('keeps a throttled address that is still trying through a flood of 20,000 other addresses', () => {
    let now = 1_000;
    const throttle = badKeyThrottle(
      () => new Throttled('too many'),
      () => now,
    );
    for (let i = 0; i < 20; i += 1) throttle.recordFailure('198.51.100.9');
    for (let i = 0; i < 20_000; i += 1) {
      throttle.recordFailure(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      // The throttled caller keeps trying meanwhile, and keeps being refused.
      if (i % 1_000 === 0) expect(() => throttle.check('198.51.100.9')).toThrow(Throttled);
      now += 1;
    }
    expect(() => throttle.check('198.51.100.9')).toThrow(Throttled);
  });
});
