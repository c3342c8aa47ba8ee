import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { clearFailures, countFailuresSince, deleteFailuresBefore, recordFailures } from './throttle-store.ts';

export interface ThrottlePolicy {
  maxPerAccount: number;
  maxPerAddress: number;
  windowMinutes: number;
}

/**
 * Failed sign-ins counted in the database, per account and per address, over a sliding window,
 * so that every server process sees the same count.
 */
export function loginThrottle(db: Db, policy: ThrottlePolicy) {
  const accountSubject = (usernameKey: string) => `account:${usernameKey}`;
  const addressSubject = (address: string) => `address:${address}`;
  const windowStart = (now: Date) => new Date(now.getTime() - policy.windowMinutes * 60_000).toISOString();

  return {
    /** Throws 429 while either counter is at its limit; checked before any password is tried. */
    async check(clientId: string, usernameKey: string, address: string, now = new Date()): Promise<void> {
      const since = windowStart(now);
      const [byAccount, byAddress] = await Promise.all([
        countFailuresSince(db, clientId, accountSubject(usernameKey), since),
        countFailuresSince(db, clientId, addressSubject(address), since),
      ]);
      if (byAccount >= policy.maxPerAccount || byAddress >= policy.maxPerAddress) throw errors.loginThrottled();
    },
    async recordFailure(clientId: string, usernameKey: string, address: string, now = new Date()): Promise<void> {
      await recordFailures(db, clientId, [accountSubject(usernameKey), addressSubject(address)], now.toISOString());
      await deleteFailuresBefore(db, windowStart(now));
    },
    async recordSuccess(clientId: string, usernameKey: string): Promise<void> {
      await clearFailures(db, clientId, accountSubject(usernameKey));
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
