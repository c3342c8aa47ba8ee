const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 20;
const MAX_ADDRESSES = 10_000;

/**
 * Bad keys per address, in this process's memory (the admin API's keys and the program API's):
 * keys are 256-bit secrets, so guessing is hopeless anyway; this only stops a noisy caller from
 * filling the logs and the database's reads, and need not be shared between processes.
 * `throttled` makes the error thrown once an address has failed too often.
 */
export function badKeyThrottle(throttled: () => Error, now: () => number = Date.now) {
  const failures = new Map<string, { count: number; since: number }>();
  return {
    check(address: string): void {
      const entry = failures.get(address);
      if (entry && now() - entry.since < WINDOW_MS && entry.count >= MAX_FAILURES) throw throttled();
    },
    recordFailure(address: string): void {
      const entry = failures.get(address);
      if (!entry || now() - entry.since >= WINDOW_MS) {
        // A bound on memory: a flood of addresses forgets them all rather than growing without end.
        if (failures.size >= MAX_ADDRESSES) failures.clear();
        failures.set(address, { count: 1, since: now() });
      } else entry.count += 1;
    },
  };
}
export type BadKeyThrottle = ReturnType<typeof badKeyThrottle>;
