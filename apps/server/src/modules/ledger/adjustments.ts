import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Participant } from '../participants/tables.ts';
import { recordAudit } from '../audit/service.ts';
import { readClientColumns } from '../clients/service.ts';
import { subjects } from '../limits/policy.ts';
import { dailyAmountLeft, takeDailyAmountIn, type DailyAmount } from '../limits/service.ts';
import { actionErrors } from '../participants/action-errors.ts';
import type { Actor } from '../participants/operator-service.ts';
import { participantBalance } from '../participants/service.ts';
import { appendLedgerEntryWithBalance, InsufficientBalanceError } from './store.ts';
import { writeToLedger } from './service.ts';
import { tellPointsMoved } from '../webhooks/service.ts';

/** The largest single adjustment: a typo guard, far above any real correction. */
export const MAX_ADJUSTMENT = 100_000_000;

/** One balance adjustment, as the console, the `rewards points adjust` command and an API give it. */
export interface AdjustmentInput {
  /** Whole points, not zero: positive credits, negative debits. */
  points: number;
  /** What the participant reads after "Balance adjustment: "; none: "Balance adjustment" alone. */
  participantText?: string;
  /** Why, for staff and operators only (ledger_entries.internal_note); never the participant's. */
  internalNote?: string;
  /** The audit entry's reason. */
  reason: string;
  /** The form's key: the same key posts once per client, however often it is sent. */
  requestId?: string;
  /** When it happened (ISO); default now. */
  occurredAt?: string;
}

export interface AdjustmentResult {
  entryId: string;
  balance: number;
  /** What is left of the agent's daily limit, for a capped caller; null otherwise. */
  agentLimitLeft: number | null;
  /** True when the requestId had posted already and this is its first answer again. */
  replayed: boolean;
  occurredAt: string;
}

/**
 * A support agent, capped in the client by its agent_daily_adjustment_limit. The limit is read
 * in the adjustment's own transaction, never from the configuration cache (decision 078): a
 * limit an owner lowered holds for the very next adjustment, on every process.
 */
export interface AgentCap {
  staffId: string;
}

const agentLimit = (cap: AgentCap, max: number): DailyAmount => ({ subject: subjects.agentAdjustments(cap.staffId), max });

/** The client's agents' daily limit as the database holds it now (in the caller's transaction, if any). */
export async function currentAgentDailyLimit(db: Db | Transaction<Database>, clientId: string): Promise<number> {
  const row = await readClientColumns(db, clientId, ['agent_daily_adjustment_limit']);
  if (!row) throw new Error('No such client');
  return row.agent_daily_adjustment_limit;
}

/** What the participant reads when no key is found (the stored description is only a fallback of the translated text). */
const fallbackText = (participantText: string | undefined) =>
  participantText ? `Balance adjustment: ${participantText}` : 'Balance adjustment';

/**
 * Adjusts one participant's balance (docs/decisions/048), for every caller alike. In ONE
 * transaction: a capped agent's amount is taken from their daily counter (a conditional upsert,
 * all or nothing, given back by the rollback if anything after it fails), the balance moves
 * (a debit only if the balance covers it, checked by the UPDATE itself), the ledger entry is
 * written with its internal note, poster and request id, and the audit entry. The unique index
 * (client_id, request_id) makes a repeated request fail to insert; it then answers the first
 * one's entry, or 409 when the body differs. Of any number of parallel debits, none takes the
 * balance below zero; of an agent's parallel adjustments, the sum never passes the cap.
 */
export async function adjustPoints(
  db: Db,
  actor: Actor,
  participant: Participant,
  input: AdjustmentInput,
  options: { agentCap?: AgentCap; now?: Date } = {},
): Promise<AdjustmentResult> {
  const now = options.now ?? new Date();
  const occurredAt = input.occurredAt ?? now.toISOString();
  const clientId = participant.client_id;
  const magnitude = Math.abs(input.points);
  if (!Number.isSafeInteger(input.points) || input.points === 0 || magnitude > MAX_ADJUSTMENT)
    throw new Error('adjustPoints: points must be a whole number, not zero, within the maximum');
  const cap = options.agentCap;
  // A second click after the first committed: answered without touching the counter or the balance.
  const earlier = input.requestId === undefined ? undefined : await replayOf(db, actor, participant, input, cap, now);
  if (earlier) return earlier;
  try {
    return await writeToLedger(db, async (trx) => {
      let agentLimitLeft: number | null = null;
      if (cap) {
        const limit = agentLimit(cap, await currentAgentDailyLimit(trx, clientId));
        const left = await takeDailyAmountIn(trx, clientId, limit, magnitude, now);
        if (left === undefined) throw actionErrors.agentLimitReached(limit.max, await dailyAmountLeft(trx, clientId, limit, now));
        agentLimitLeft = left;
      }
      // The ledger answers the balance after the entry (decision 093: no read-back).
      const { entryId, balance } = await appendLedgerEntryWithBalance(
        trx,
        {
          clientId,
          participantId: participant.id,
          occurredAt,
          amount: input.points,
          kind: 'adjustment',
          description: fallbackText(input.participantText),
          ...(input.participantText
            ? { descriptionKey: 'ledger.operator.adjustmentNote', descriptionParams: { description: input.participantText } }
            : { descriptionKey: 'ledger.operator.adjustment' }),
          ...(input.internalNote === undefined ? {} : { internalNote: input.internalNote }),
          postedBy: actor.name,
          ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
        },
        now,
        { requireCovered: input.points < 0 },
      );
      await recordAudit(
        trx,
        {
          clientId,
          actor: actor.name,
          actorKind: actor.kind,
          action: 'points.adjust',
          subject: participant.id,
          details: {
            username: participant.username,
            points: input.points,
            reason: input.reason,
            balance,
            entryId,
            ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
          },
          origin: actor.origin,
        },
        now,
      );
      // Told to the client's webhooks with the change (decision 084).
      await tellPointsMoved(
        trx,
        {
          clientId,
          username: participant.username,
          points: input.points,
          balanceAfter: balance,
          entryId,
          occurredAt,
          source: 'adjustment',
        },
        now,
      );
      return { entryId, balance, agentLimitLeft, replayed: false, occurredAt };
    });
  } catch (error) {
    // A parallel copy of the same request won the unique index, or was refused for it (the
    // counter or the balance it had used): the first one's answer, if it has committed.
    if (input.requestId !== undefined) {
      const first = await replayOf(db, actor, participant, input, cap, now);
      if (first) return first;
    }
    if (error instanceof InsufficientBalanceError)
      throw actionErrors.insufficientBalance(await balanceOf(db, participant), input.points, participant.username);
    throw error;
  }
}

/** The participant's cached balance now (the participants' read). */
async function balanceOf(db: Db, participant: Participant): Promise<number> {
  return (await participantBalance(db, participant.client_id, participant.id))?.balance ?? 0;
}

/**
 * The entry an earlier request with this requestId posted, as its answer; 409 when it was a
 * different adjustment (another participant, amount, text, note or poster); undefined if none.
 */
async function replayOf(
  db: Db,
  actor: Actor,
  participant: Participant,
  input: AdjustmentInput,
  cap: AgentCap | undefined,
  now: Date,
): Promise<AdjustmentResult | undefined> {
  if (input.requestId === undefined) return undefined;
  const entry = await db
    .selectFrom('ledger_entries')
    .select(['id', 'participant_id', 'amount', 'description_params', 'internal_note', 'posted_by', 'occurred_at'])
    .where('client_id', '=', participant.client_id)
    .where('request_id', '=', input.requestId)
    .executeTakeFirst();
  if (!entry) return undefined;
  const text = entry.description_params ? (JSON.parse(entry.description_params) as { description?: string }).description : undefined;
  const same =
    entry.participant_id === participant.id &&
    Number(entry.amount) === input.points &&
    (text ?? undefined) === (input.participantText || undefined) &&
    (entry.internal_note ?? undefined) === input.internalNote &&
    entry.posted_by === actor.name;
  if (!same) throw actionErrors.requestIdReused();
  return {
    entryId: entry.id,
    balance: await balanceOf(db, participant),
    agentLimitLeft: cap
      ? await dailyAmountLeft(db, participant.client_id, agentLimit(cap, await currentAgentDailyLimit(db, participant.client_id)), now)
      : null,
    replayed: true,
    occurredAt: entry.occurred_at,
  };
}
