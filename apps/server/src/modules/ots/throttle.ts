import type { Db } from '../../db/database.ts';
import { countFailuresSince, recordFailures } from '../auth/throttle-store.ts';
import { otsErrors } from './errors.ts';
import { deleteOtsFailuresBefore } from './store.ts';

export interface OtsThrottlePolicy {
  maxPerParticipant: number;
  windowMinutes: number;
}

/**
 * Failed redeems per participant over a sliding window, counted in the database (the
 * login_failures table, subject "ots:<participant id>") so that every server process shares
 * the count. A success does not clear it: one good code must not buy more guesses.
 */
export function otsThrottle(db: Db, policy: OtsThrottlePolicy) {
  const subject = (participantId: string) => `ots:${participantId}`;
  const windowStart = (now: Date) => new Date(now.getTime() - policy.windowMinutes * 60_000).toISOString();
  return {
    /** Throws 429 while the participant is at the limit; checked before any code is looked at. */
    async check(clientId: string, participantId: string, now = new Date()): Promise<void> {
      const failures = await countFailuresSince(db, clientId, subject(participantId), windowStart(now));
      if (failures >= policy.maxPerParticipant) throw otsErrors.throttled();
    },
    async recordFailure(clientId: string, participantId: string, now = new Date()): Promise<void> {
      await recordFailures(db, clientId, [subject(participantId)], now.toISOString());
      await deleteOtsFailuresBefore(db, clientId, subject(participantId), windowStart(now));
    },
  };
}
export type OtsThrottle = ReturnType<typeof otsThrottle>;
