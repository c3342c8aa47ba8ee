import type { OtsRedeemReply, OtsRedeemRequest } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../sessions/tables.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { appendLedgerEntryWithBalance, writeToLedger } from '../ledger/service.ts';
import { findParticipant, usernameKey } from '../participants/service.ts';
import { normaliseOtsCode, otsCodeHash } from './code.ts';
import { otsErrors } from './errors.ts';
import { claimOtsCode, findOtsCode } from './store.ts';

// Making codes and claiming one, as the demo seed plays a redemption of ten days ago; an
// operator's print runs are print-runs.ts (decision 053).
export { claimOtsCode, insertOtsCodes, newOtsCodeRows } from './store.ts';
// What the reports (counts per print run and status) and the console's participant page (the
// codes they redeemed) read of the codes (issue 30 §3).
export { codesByBatch, codesRedeemedBy, type CodeCounts } from './store.ts';
import { limitsOf, type LimitPolicy } from '../limits/policy.ts';
import { giveBack, takeSlotsIn } from '../limits/service.ts';
import { tellWebhooks } from '../webhooks/service.ts';

export interface OtsContext {
  db: Db;
  limits: LimitPolicy;
}

/** Translation key of the reply's message: takes {value} and {mediaLabel}. */
export const OTS_SUCCESS_MESSAGE = 'ots.success.redeemed';

/**
 * Redeems an on-the-spot code for the signed-in participant. Refusals change nothing; the
 * claim of the code and its ledger entry commit together, so a code credits points once, ever.
 */
export async function redeemOtsCode(
  ctx: OtsContext,
  session: Session,
  request: OtsRedeemRequest,
  now = new Date(),
): Promise<OtsRedeemReply> {
  // An administrator acting as the participant may not redeem for them (spec section 6).
  if (session.admin_as_user === 1) throw errors.forbidden();
  const participant = await findParticipant(ctx.db, session.client_id, session.participant_id);
  if (!participant) throw errors.sessionRequired();
  // The reply names whose balance moved: it must be the session's own.
  if (usernameKey(request.userName) !== participant.username_key) throw errors.forbidden();
  if (participant.ots_enabled !== 1 || participant.status !== 'active') throw otsErrors.notEnabled();

  const normalised = normaliseOtsCode(request.code);
  if (normalised.length === 0) throw errors.validation('Invalid body: code');
  const codeHash = otsCodeHash(normalised);
  const at = now.toISOString();

  // One transaction (decision 040): a slot of the participant's wrong-code limit is taken before
  // the code is looked at (on PostgreSQL its row stays locked to the commit, so one participant's
  // redeems take turns); a redeemed code gives it back, a refused one keeps it. A success does
  // not forgive earlier failures: one good code must not buy more guesses. Through the ledger
  // writer (decision 093): on SQLite it shares its commit with the redemptions beside it.
  const outcome = await writeToLedger(ctx.db, async (trx) => {
    const slots = await takeSlotsIn(trx, session.client_id, limitsOf(ctx.limits).ots(participant.id), now);
    if (!slots) return 'throttled' as const;
    // The claim answers the code it claimed, and the ledger the balance after: no read-back.
    const code = await claimOtsCode(trx, session.client_id, codeHash, participant.id, at);
    if (!code) return 'refused' as const;
    await giveBack(trx, slots);
    const { entryId, balance: accountBalance } = await appendLedgerEntryWithBalance(
      trx,
      {
        clientId: session.client_id,
        participantId: participant.id,
        occurredAt: at,
        description: `On-the-spot code …${code.code_hint}`,
        descriptionKey: 'ledger.ots.redeemed',
        descriptionParams: { hint: code.code_hint },
        amount: code.value,
        kind: 'ots',
        reference: `ots:${code.id}`,
      },
      now,
    );
    // Told to the client's webhooks with the redemption (decision 084).
    await tellWebhooks(
      trx,
      {
        clientId: session.client_id,
        kind: 'code.redeemed',
        username: participant.username,
        data: { points: code.value, balanceAfter: accountBalance, entryId, codeHint: code.code_hint, occurredAt: at },
      },
      now,
    );
    return { value: code.value, accountBalance };
  });
  if (outcome === 'throttled') throw otsErrors.throttled();
  if (outcome === 'refused') throw await whyNotRedeemable(ctx.db, session.client_id, codeHash, at);
  return { message: OTS_SUCCESS_MESSAGE, ...outcome };
}

/** The distinct reason a code could not be claimed, looked up after the claim failed. */
async function whyNotRedeemable(db: Db, clientId: string, codeHash: string, at: string): Promise<ApiError> {
  const code = await findOtsCode(db, clientId, codeHash);
  if (!code) return otsErrors.unknownCode();
  if (code.status === 'redeemed') return otsErrors.used();
  if (code.status === 'void') return otsErrors.void();
  if (code.expires_at !== null && code.expires_at <= at) return otsErrors.expired();
  // Unused and valid, yet not claimed: cannot happen, since the claim's condition is the same.
  return otsErrors.used();
}
