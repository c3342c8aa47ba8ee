import { ErrorCode, PasswordRules, checkPasswordRules, type ChangePasswordReply, type ChangePasswordRequest } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../sessions/tables.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { findClient } from '../clients/service.ts';
import { limitsOf, subjects, type LimitPolicy } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';
import { findParticipant, setPasswordHash } from '../participants/service.ts';
import { deleteOtherSessions } from '../sessions/service.ts';

export interface PasswordChangeContext {
  db: Db;
  limits: LimitPolicy;
}

export const profileErrors = {
  // 400, not 401: a 401 on a live session is the web app's session-timeout path (it reloads).
  wrongCurrentPassword: () =>
    new ApiError(400, ErrorCode.wrongCurrentPassword, 'profile.error.wrongPassword', 'The current password is not correct'),
  rulesNotMet: () =>
    new ApiError(400, ErrorCode.passwordRulesNotMet, 'profile.error.rules', 'The new password does not meet the password rules'),
  // The same limit and code as sign-in, in words that fit this form.
  throttled: () => new ApiError(429, ErrorCode.loginThrottled, 'profile.error.throttled', 'Too many wrong current passwords'),
  samePassword: () =>
    new ApiError(400, ErrorCode.samePassword, 'profile.error.samePassword', 'The new password must differ from the current one'),
};

/**
 * PUT user/password. The participant's own act: an administrator acting as them may not. The
 * checks that need no secret come first, so a refused new password costs no attempt; a wrong
 * current password counts toward the same per-account limit as sign-in. On success the other
 * sessions end (whoever else held one no longer knows the password); this one stays.
 */
export async function changePassword(
  ctx: PasswordChangeContext,
  session: Session,
  address: string,
  request: ChangePasswordRequest,
): Promise<ChangePasswordReply> {
  if (session.admin_as_user === 1) throw errors.forbidden();
  const [client, participant] = await Promise.all([
    findClient(ctx.db, session.client_id),
    findParticipant(ctx.db, session.client_id, session.participant_id),
  ]);
  if (!client) throw errors.unknownClient();
  if (!participant) throw errors.sessionRequired();

  const rules = PasswordRules.parse(JSON.parse(client.password_rules));
  if (!checkPasswordRules(rules, request.newPassword, participant.username).every((r) => r.met)) throw profileErrors.rulesNotMet();
  if (request.newPassword === request.oldPassword) throw profileErrors.samePassword();

  const key = participant.username_key;
  const slots = await takeSlots(ctx.db, session.client_id, limitsOf(ctx.limits).signIn(key, address), profileErrors.throttled);
  if (!(await verifyPassword(participant.password_hash, request.oldPassword))) throw profileErrors.wrongCurrentPassword();
  await succeeded(ctx.db, slots, [subjects.signIn(key)]);

  const passwordHash = await hashPassword(request.newPassword);
  const otherSessionsEnded = await ctx.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, session.client_id, participant.id, passwordHash);
    return deleteOtherSessions(trx, session.client_id, participant.id, session.id_hash);
  });
  return { otherSessionsEnded };
}
