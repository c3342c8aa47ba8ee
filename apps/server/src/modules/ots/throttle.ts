import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { countFailuresSince } from '../auth/throttle-store.ts';
import { otsErrors } from './errors.ts';
import { deleteOtsAttempt, deleteOtsFailuresBefore, insertOtsAttempt } from './store.ts';

export interface OtsThrottlePolicy {
  maxPerParticipant: number;
  windowMinutes: number;
}

/**
 * Failed redeems per participant over a sliding window, counted in the database (the
 * login_failures table, subject "ots:<participant id>") so that every server process shares
 * the count. Each attempt is written down as a failure BEFORE its code is looked at and taken
 * back only if it succeeds: a burst of parallel guesses is counted while it is in flight, so it
 * cannot slip past a check that each of them would pass alone. A success does not clear older
 * failures: one good code must not buy more guesses.
 */
export function otsThrottle(db: Db, policy: OtsThrottlePolicy) {
  const subject = (participantId: string) => `ots:${participantId}`;
  const windowStart = (now: Date) => new Date(now.getTime() - policy.windowMinutes * 60_000).toISOString();
  return {
    /** Records the attempt; throws 429 (and forgets it) when it is one too many. Returns its id. */
    async begin(clientId: string, participantId: string, now = new Date()): Promise<string> {
      // The purge and the record commit together (one commit to wait for, decision 014); the
      // count runs after that commit, so parallel attempts, also on other processes, see each other.
      const attempt = await db.transaction().execute(async (trx) => {
        await deleteOtsFailuresBefore(trx, clientId, subject(participantId), windowStart(now));
        return insertOtsAttempt(trx, clientId, subject(participantId), now.toISOString());
      });
      const attempts = await countFailuresSince(db, clientId, subject(participantId), windowStart(now));
      if (attempts > policy.maxPerParticipant) {
        await deleteOtsAttempt(db, clientId, attempt);
        throw otsErrors.throttled();
      }
      return attempt;
    },
    /**
     * The attempt redeemed a code: it was no failure. Called inside the redemption's own
     * transaction, so the attempt is taken back exactly when the redemption commits.
     */
    async succeeded(trx: Transaction<Database>, clientId: string, attempt: string): Promise<void> {
      await deleteOtsAttempt(trx, clientId, attempt);
    },
  };
}
export type OtsThrottle = ReturnType<typeof otsThrottle>;
