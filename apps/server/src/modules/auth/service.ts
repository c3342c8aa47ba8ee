import { ErrorCode, type LoginRequest, type UserData } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { buildUserData, findParticipantByUsername, usernameKey } from '../participants/service.ts';
import { endSession, startSession, type SessionPolicy } from '../sessions/service.ts';
import { passwordSignInOff } from '../sso/settings.ts';
import { decoyPasswordHash, verifyPassword } from './password.ts';
import { limitsOf, subjects, type LimitPolicy } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';

export interface LoginContext {
  db: Db;
  sessionPolicy: SessionPolicy;
  limits: LimitPolicy;
}

/**
 * Username and password sign-in. An unknown user and a wrong password fail alike, in the same
 * time; the account's state (not activated, inactive) is told only to whoever knows the password.
 */
export async function login(ctx: LoginContext, clientId: string, address: string, request: LoginRequest): Promise<UserData> {
  if (await passwordSignInOff(ctx.db, clientId)) {
    throw new ApiError(
      403,
      ErrorCode.passwordSignInOff,
      'ssoFlow.error.passwordSignInOff',
      'This program signs in through the company account only',
    );
  }
  const key = usernameKey(request.username);
  // The slot is taken before the password is tried: a burst gets at most the limit checked.
  const slots = await takeSlots(ctx.db, clientId, limitsOf(ctx.limits).signIn(key, address), errors.loginThrottled);
  const participant = await findParticipantByUsername(ctx.db, clientId, request.username);
  const passwordOk = await verifyPassword(participant?.password_hash ?? (await decoyPasswordHash()), request.password);
  if (!participant || !passwordOk) throw errors.invalidCredentials();
  // The right password: its earlier wrong guesses of the short window are forgiven.
  await succeeded(ctx.db, slots, [subjects.signIn(key)]);
  if (participant.status === 'pending') throw errors.preActivation();
  if (participant.status === 'inactive' && (participant.balance ?? 0) <= 0) throw errors.accountInactive();
  const { sessionId, session } = await startSession(ctx.db, ctx.sessionPolicy, clientId, participant.id, false);
  return buildUserData(ctx.db, participant, session, sessionId);
}

export async function logout(db: Db, clientId: string, sessionId: string | undefined): Promise<void> {
  if (sessionId) await endSession(db, clientId, sessionId);
}
