import type { Db } from '../../db/database.ts';
import type { Participant } from '../participants/tables.ts';
import { recordAudit } from '../audit/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { appendLedgerEntryWithBalance } from './store.ts';
import { writeToLedger } from './service.ts';
import { tellPointsMoved } from '../webhooks/service.ts';

/** The largest single award: a typo guard, far above any real one. */
export const MAX_AWARD = 100_000_000;

export interface AwardInput {
  /** Whole points, 1 to MAX_AWARD. */
  points: number;
  /** What the participant reads as the entry's description (decision 022). */
  description: string;
  /** Why, for the audit entry. */
  reason: string;
  /** When it happened (ISO); default now. */
  occurredAt?: string;
}

export interface AwardResult {
  entryId: string;
  balance: number;
  occurredAt: string;
}

/**
 * Credits one participant (`rewards points award`): the ledger entry, the balance and the audit
 * entry (subject the username, with the reason and the new balance) in one transaction.
 */
export async function awardPoints(
  db: Db,
  actor: Actor,
  participant: Pick<Participant, 'id' | 'client_id' | 'username'>,
  input: AwardInput,
  now = new Date(),
): Promise<AwardResult> {
  if (!Number.isSafeInteger(input.points) || input.points < 1 || input.points > MAX_AWARD)
    throw new Error('awardPoints: points must be a whole number from 1 to the maximum');
  const occurredAt = input.occurredAt ?? now.toISOString();
  const clientId = participant.client_id;
  return writeToLedger(db, async (trx) => {
    const { entryId, balance } = await appendLedgerEntryWithBalance(
      trx,
      {
        clientId,
        participantId: participant.id,
        occurredAt,
        amount: input.points,
        kind: 'award',
        description: input.description,
        descriptionKey: 'ledger.operator.award',
        descriptionParams: { description: input.description },
      },
      now,
    );
    await recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'points.award',
        subject: participant.username,
        details: { points: input.points, reason: input.reason, balance },
        origin: actor.origin,
      },
      now,
    );
    // Told to the client's webhooks with the change (decision 084).
    await tellPointsMoved(
      trx,
      { clientId, username: participant.username, points: input.points, balanceAfter: balance, entryId, occurredAt, source: 'award' },
      now,
    );
    return { entryId, balance, occurredAt };
  });
}
