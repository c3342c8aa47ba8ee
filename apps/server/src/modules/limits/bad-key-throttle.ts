import { LRUCache } from 'lru-cache';
import { cacheClock } from '../../db/read-cache.ts';

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 20;
const MAX_ADDRESSES = 10_000;

/**
 * Bad keys per address, in this process's memory (the admin API's keys and the program API's):
 * keys are 256-bit secrets, so guessing is hopeless anyway; this only stops a noisy caller from
 * filling the logs and the database's reads, and need not be shared between processes.
 * `throttled` makes the error thrown once an address has failed too often; `now`, a monotonic
 * clock in milliseconds (tests set it).
 */
export function badKeyThrottle(throttled: () => Error, now: () => number = () => cacheClock.now()) {
  // A window of 15 minutes from an address's first failure (the TTL, not moved by later ones).
  // Bounded: when full, the address seen least recently goes, so a flood of new addresses cannot
  // wipe out one that is throttled and still trying (each try is a `get`, which keeps it recent).
  const failures = new LRUCache<string, { count: number }>({
    max: MAX_ADDRESSES,
    ttl: WINDOW_MS,
    noUpdateTTL: true,
    perf: { now },
    ttlResolution: 0,
  });
  return {
    check(address: string): void {
      const entry = failures.get(address);
      if (entry && entry.count >= MAX_FAILURES) throw throttled();
    },
    recordFailure(address: string): void {
      const entry = failures.get(address);
      if (entry) entry.count += 1;
      else failures.set(address, { count: 1 });
    },
  };
}
export type BadKeyThrottle = ReturnType<typeof badKeyThrottle>;
