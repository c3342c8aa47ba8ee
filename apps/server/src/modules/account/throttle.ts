import type { Db } from '../../db/database.ts';
import type { ThrottlePolicy } from '../auth/throttle.ts';
import { clearFailures, countFailuresSince, deleteFailuresBefore, recordFailures } from '../auth/throttle-store.ts';
import { accountErrors } from './errors.ts';

/** A counted subject and how many events it may have in the window. */
export interface Limit {
  subject: string;
  max: number;
}

/**
 * The account endpoints' throttles, counted in the same login_failures table as sign-in (so every
 * server process sees one count) under their own subject prefixes, e.g. "activate-address:<ip>".
 * Activation and reset count failures; the forgot endpoints count every request, because their
 * reply never says whether anything matched.
 */
export function accountThrottle(db: Db, policy: ThrottlePolicy) {
  const windowStart = (now: Date) => new Date(now.getTime() - policy.windowMinutes * 60_000).toISOString();
  return {
    perAccount: policy.maxPerAccount,
    perAddress: policy.maxPerAddress,
    /** Throws 429 while any subject is at its limit. */
    async check(clientId: string, limits: Limit[], now = new Date()): Promise<void> {
      const since = windowStart(now);
      const counts = await Promise.all(limits.map((limit) => countFailuresSince(db, clientId, limit.subject, since)));
      if (counts.some((count, index) => count >= (limits[index]?.max ?? 0))) throw accountErrors.throttled();
    },
    async record(clientId: string, subjects: string[], now = new Date()): Promise<void> {
      await recordFailures(db, clientId, subjects, now.toISOString());
      await deleteFailuresBefore(db, windowStart(now));
    },
    async clear(clientId: string, subject: string): Promise<void> {
      await clearFailures(db, clientId, subject);
    },
  };
}
export type AccountThrottle = ReturnType<typeof accountThrottle>;
