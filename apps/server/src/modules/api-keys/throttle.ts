import { apiKeyErrors } from './errors.ts';

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 20;
const MAX_ADDRESSES = 10_000;

/**
 * Bad API keys per address, in this process's memory, as the admin API's (launch-as/throttle.ts):
 * keys carry 256 random bits, so guessing is hopeless anyway; this stops a noisy caller from
 * filling the logs and the database's reads. It need not be shared between processes.
 */
export function badKeyThrottle(now: () => number = Date.now) {
  const failures = new Map<string, { count: number; since: number }>();
  return {
    check(address: string): void {
      const entry = failures.get(address);
      if (entry && now() - entry.since < WINDOW_MS && entry.count >= MAX_FAILURES) throw apiKeyErrors.throttled();
    },
    recordFailure(address: string): void {
      const entry = failures.get(address);
      if (!entry || now() - entry.since >= WINDOW_MS) {
        if (failures.size >= MAX_ADDRESSES) failures.clear();
        failures.set(address, { count: 1, since: now() });
      } else entry.count += 1;
    },
  };
}
export type BadKeyThrottle = ReturnType<typeof badKeyThrottle>;
