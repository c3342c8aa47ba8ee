import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { countOtsFailuresSince, deleteOtsFailuresBefore, insertOtsAttempt, lockParticipantForOts } from './store.ts';

export interface OtsThrottlePolicy {
  maxPerParticipant: number;
  windowMinutes: number;
}

/**
 * Failed redeems per participant over a sliding window, counted in the database (the
 * login_failures table, subject "ots:<participant id>") so that every server process shares
 * the count. The count, the redemption and the record of a failure happen in ONE transaction
 * that first locks the participant's row: attempts of one participant run one after another,
 * on every process (PostgreSQL holds the row lock to the commit; SQLite has a single writer),
 * so a burst of parallel guesses cannot slip past a check that each of them would pass alone.
 * One transaction is also one commit to wait for (docs/decisions/014). A success does not
 * clear older failures: one good code must not buy more guesses.
 */
export function otsThrottle(_db: Db, policy: OtsThrottlePolicy) {
  const subject = (participantId: string) => `ots:${participantId}`;
  const windowStart = (now: Date) => new Date(now.getTime() - policy.windowMinutes * 60_000).toISOString();
  return {
    /** Locks the participant's attempts for this transaction; true when they may try another code. */
    async allows(trx: Transaction<Database>, clientId: string, participantId: string, now: Date): Promise<boolean> {
      await lockParticipantForOts(trx, clientId, participantId);
      await deleteOtsFailuresBefore(trx, clientId, subject(participantId), windowStart(now));
      const failures = await countOtsFailuresSince(trx, clientId, subject(participantId), windowStart(now));
      return failures < policy.maxPerParticipant;
    },
    /** A code that did not redeem: one more failure, committed with the transaction. */
    async failed(trx: Transaction<Database>, clientId: string, participantId: string, now: Date): Promise<void> {
      await insertOtsAttempt(trx, clientId, subject(participantId), now.toISOString());
    },
  };
}

export type OtsThrottle = ReturnType<typeof otsThrottle>;
