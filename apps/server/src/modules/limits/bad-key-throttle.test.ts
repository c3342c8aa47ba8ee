import { describe, expect, it } from 'vitest';
import { badKeyThrottle } from './bad-key-throttle.ts';

class Throttled extends Error {}

describe('the bad-key throttle (in memory, no database)', () => {
  it('throws the given error after 20 failures of an address within 15 minutes, for that address only, and forgets them after', () => {
    let now = 0;
    const throttle = badKeyThrottle(
      () => new Throttled('too many'),
      () => now,
    );
    for (let i = 0; i < 19; i += 1) throttle.recordFailure('192.0.2.1');
    expect(() => throttle.check('192.0.2.1')).not.toThrow();
    throttle.recordFailure('192.0.2.1');
    expect(() => throttle.check('192.0.2.1')).toThrow(Throttled);
    expect(() => throttle.check('192.0.2.2')).not.toThrow();
    now += 15 * 60_000;
    expect(() => throttle.check('192.0.2.1')).not.toThrow();
    // A new window starts with the next failure.
    throttle.recordFailure('192.0.2.1');
    expect(() => throttle.check('192.0.2.1')).not.toThrow();
  });
});
