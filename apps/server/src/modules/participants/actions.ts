import type { Db } from '../../db/database.ts';
import type { Client } from '../clients/tables.ts';
import type { Participant } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { resendActivationMail, resendResetMail, type AccountContext } from '../account/service.ts';
import { recordAudit, type AuditRecord } from '../audit/service.ts';
import type { LimitPolicy } from '../limits/policy.ts';
import { unlockParticipant } from '../limits/service.ts';
import { tellWebhooks } from '../webhooks/service.ts';
import { actionErrors } from './action-errors.ts';
import { PARTICIPANT_STATUSES, type ParticipantStatus } from './fields.ts';
import { emailChangeHoldUntil, type Actor } from './operator-service.ts';
import { setParticipantStatus } from './operator-store.ts';
import { deleteSessionsOf } from '../sessions/service.ts';

/**
 * The participant actions of the console and the `rewards participants` commands alike
 * (docs/decisions/048): each checks, changes and writes its audit entry in one transaction, and
 * returns the entry's id. The audit entry's subject is the participant's id (their username is
 * in its details); `reason` is recorded when given (the console always gives one).
 */

/** What every action records: who, from where, about whom, why. */
function auditOf(
  actor: Actor,
  participant: Participant,
  action: string,
  details: Record<string, unknown>,
  reason: string | undefined,
): AuditRecord {
  return {
    clientId: participant.client_id,
    actor: actor.name,
    actorKind: actor.kind,
    action,
    subject: participant.id,
    details: { username: participant.username, ...details, ...(reason === undefined ? {} : { reason }) },
    origin: actor.origin,
  };
}

/** A status the participants module knows, or a 400 naming them. */
export function parseStatus(value: string | undefined): ParticipantStatus {
  const status = PARTICIPANT_STATUSES.find((s) => s === value?.trim().toLowerCase());
  if (!status) throw errors.validation(`status must be ${PARTICIPANT_STATUSES.join(', ')} (found "${value ?? ''}")`);
  return status;
}

export interface StatusChange {
  from: string;
  to: ParticipantStatus;
  /** False when the participant already had the status (nothing written, no audit entry). */
  changed: boolean;
  sessionsEnded: number;
  auditId: string | null;
}

/**
 * Sets the status; inactive also ends every session (who can no longer use the portal as before
 * is signed out at once). "pending" means "has not activated yet", a fact of the account, as in
 * an import (fields.ts resultingStatus): an activated account never goes back to it, since its
 * activation asks only for facts staff can read (decision 076). 409 for that. A change is told
 * to the client's webhooks (participant.status_changed) in its transaction, whoever made it.
 */
export async function changeStatus(
  db: Db,
  actor: Actor,
  participant: Participant,
  status: ParticipantStatus,
  reason?: string,
): Promise<StatusChange> {
  if (participant.status === status) return { from: participant.status, to: status, changed: false, sessionsEnded: 0, auditId: null };
  if (status === 'pending') throw actionErrors.noWayBackToPending(participant.username);
  return db.transaction().execute(async (trx) => {
    await setParticipantStatus(trx, participant.client_id, participant.id, status);
    await tellWebhooks(trx, {
      clientId: participant.client_id,
      kind: 'participant.status_changed',
      username: participant.username,
      data: { from: participant.status, to: status },
    });
    const sessionsEnded = status === 'active' ? 0 : await deleteSessionsOf(trx, participant.client_id, [participant.id]);
    const auditId = await recordAudit(
      trx,
      auditOf(actor, participant, 'participants.set-status', { from: participant.status, to: status, sessionsEnded }, reason),
    );
    return { from: participant.status, to: status, changed: true, sessionsEnded, auditId };
  });
}

/** Clears every attempt limit on the participant (sign-in, codes, activation, reset); the attempts cleared. */
export async function unlock(
  db: Db,
  policy: LimitPolicy,
  actor: Actor,
  participant: Participant,
  reason?: string,
): Promise<{ failuresCleared: number; auditId: string }> {
  return db.transaction().execute(async (trx) => {
    const failuresCleared = await unlockParticipant(trx, policy, participant);
    const auditId = await recordAudit(trx, auditOf(actor, participant, 'participants.unlock', { failuresCleared }, reason));
    return { failuresCleared, auditId };
  });
}

/** Signs the participant out everywhere (launched sessions too). */
export async function endSessions(
  db: Db,
  actor: Actor,
  participant: Participant,
  reason?: string,
): Promise<{ sessionsEnded: number; auditId: string }> {
  return db.transaction().execute(async (trx) => {
    const sessionsEnded = await deleteSessionsOf(trx, participant.client_id, [participant.id]);
    const auditId = await recordAudit(trx, auditOf(actor, participant, 'participants.sessions-end', { sessionsEnded }, reason));
    return { sessionsEnded, auditId };
  });
}

export type ResentMail = 'activation' | 'passwordReset';

/**
 * Resends the activation invitation (pending participants) or a password-reset link (the
 * others), through the account module and under its limits; a mail that does not apply is a 409
 * saying which one does. Queued in the outbox with the audit entry, in one transaction. Within 24
 * hours of staff changing the address, only a caller who may confirm it sends (decision 076:
 * `confirmedRecentEmailChange`, a program manager or an owner who just passed a second factor).
 */
export async function resendMail(
  ctx: AccountContext,
  actor: Actor,
  client: Client,
  participant: Participant,
  mail: ResentMail,
  reason: string,
  options: { confirmedRecentEmailChange?: boolean } = {},
): Promise<{ auditId: string }> {
  const pending = participant.status === 'pending';
  if (mail === 'activation' && !pending) throw actionErrors.mailNotApplicable(participant.username, 'notPending', participant.status);
  if (mail === 'passwordReset' && pending) throw actionErrors.mailNotApplicable(participant.username, 'notActivated', participant.status);
  if (!participant.email) throw actionErrors.mailNotApplicable(participant.username, 'noEmail', participant.status);
  const hold = emailChangeHoldUntil(participant);
  if (hold && !options.confirmedRecentEmailChange) throw actionErrors.emailRecentlyChanged(participant.username, hold);
  const caller = { clientId: client.id, portalUrl: client.portal_url, address: actor.origin };
  const audit = async (trx: Parameters<Parameters<typeof resendResetMail>[3]>[0]) => ({
    auditId: await recordAudit(trx, auditOf(actor, participant, 'participants.resend-mail', { mail }, reason)),
  });
  return mail === 'activation'
    ? resendActivationMail(ctx, caller, participant, audit, actionErrors.mailThrottled)
    : resendResetMail(ctx, caller, participant, audit, actionErrors.mailThrottled);
}
