import type { PasskeyOptions, PasskeyRequest } from '@rewards/contract/console';
import { FRESH_SECOND_FACTOR_MINUTES, type StepUpReply } from '@rewards/contract/console-staff';
import { errors } from '../../http/api-error.ts';
import { limitsOf, STAFF_LIMITS_SCOPE, subjects } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';
import { staffErrors } from './errors.ts';
import { passkeyCheck, signInPasskeyOptions } from './passkeys.ts';
import type { LiveStaffSession } from './sessions.ts';
import { recoveryCodeCheck, totpCheck, type StaffContext } from './sign-in.ts';
import { renewSecondFactor } from './store.ts';

/**
 * Step-up (docs/decisions/049): within a live full session, a second factor passed again makes
 * the session's factor fresh for FRESH_SECOND_FACTOR_MINUTES, which staff management and large
 * adjustments ask for (requireFreshSecondFactor). The same factors, checks and limits as the
 * sign-in's second step: a slot of the person's second-factor limit first (5 in 15 minutes, 20 a
 * day, shared with sign-in and enrolment), a used TOTP step or recovery code refused, a right
 * factor forgives the window's wrong ones. The session keeps its id: no new privilege is tied to
 * a new secret, only the time of the factor moves.
 */
async function stepUp(ctx: StaffContext, live: LiveStaffSession, check: () => Promise<boolean>, now: Date): Promise<StepUpReply> {
  const { staff, session } = live;
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSecondFactor(staff.id), staffErrors.throttled, now);
  if (!(await check())) throw staffErrors.secondFactorFailed();
  await succeeded(ctx.db, slots, [subjects.staffSecondFactor(staff.id)]);
  // Ended meanwhile (signed out, disabled, reset): nothing to renew.
  if (!(await renewSecondFactor(ctx.db, session.id_hash, now.toISOString()))) throw errors.sessionRequired();
  return { freshUntil: new Date(now.getTime() + FRESH_SECOND_FACTOR_MINUTES * 60_000).toISOString() };
}

export function stepUpWithTotp(ctx: StaffContext, live: LiveStaffSession, code: string, now = new Date()): Promise<StepUpReply> {
  return stepUp(ctx, live, totpCheck(ctx, live.staff, code, now), now);
}

export function stepUpWithRecoveryCode(ctx: StaffContext, live: LiveStaffSession, code: string, now = new Date()): Promise<StepUpReply> {
  return stepUp(ctx, live, recoveryCodeCheck(ctx, live.staff, code, now), now);
}

/** Step 1 of a passkey step-up: options naming the person's passkeys, the challenge kept on the session (409 without a passkey). */
export function stepUpPasskeyOptions(ctx: StaffContext, live: LiveStaffSession): Promise<PasskeyOptions> {
  return signInPasskeyOptions(ctx, live);
}

export function stepUpWithPasskey(
  ctx: StaffContext,
  live: LiveStaffSession,
  request: PasskeyRequest,
  now = new Date(),
): Promise<StepUpReply> {
  return stepUp(ctx, live, passkeyCheck(ctx, live, request, now), now);
}
