import { launchErrors } from './errors.ts';

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 20;
const MAX_ADDRESSES = 10_000;

/**
 * Bad admin keys per address, in this process's memory: keys are 256-bit secrets, so this only
 * stops a noisy caller from filling the logs; it need not be shared between processes.
 */
export function badKeyThrottle(now: () => number = Date.now) {
  const failures = new Map<string, { count: number; since: number }>();
  return {
    check(address: string): void {
      const entry = failures.get(address);
      if (entry && now() - entry.since < WINDOW_MS && entry.count >= MAX_FAILURES) throw launchErrors.keyThrottled();
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
