import type { SecondFactor, StaffMe, StaffSignInReply, StaffSignInRequest } from '@rewards/contract/console';
import type { Db } from '../../db/database.ts';
import type { Staff, StaffSession } from './tables.ts';
import { decoyPasswordHash, verifyPassword } from '../auth/password.ts';
import { limitsOf, STAFF_LIMITS_SCOPE, subjects, type LimitPolicy } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';
import { staffErrors } from './errors.ts';
import { hashRecoveryCode, openTotpSecret, totpStep } from './secrets.ts';
import { endStaffSession, startFullSession, startHalfSession, staffMe, type StartedSession } from './sessions.ts';
import { acceptTotpStep, emailKey, findStaffByEmail, passkeysOf, unusedRecoveryCodes, updateStaff, useRecoveryCode } from './store.ts';

/** What the console's services need. */
export interface StaffContext {
  db: Db;
  limits: LimitPolicy;
  /** Where the installation's sealing key lives (the TOTP secrets). */
  dataDir: string;
  consoleOrigin: string;
}

/**
 * The password step. The limits are taken before the password is tried (decision 040): per
 * e-mail (and its daily twin) and per address. An unknown address, a person not enrolled and a
 * wrong password fail alike, in the same time (an argon2id check against a decoy). Only whoever
 * knows the password learns that the account is disabled.
 */
export async function signInWithPassword(
  ctx: StaffContext,
  address: string,
  request: StaffSignInRequest,
  now = new Date(),
): Promise<{ started: StartedSession; reply: StaffSignInReply }> {
  const key = emailKey(request.email);
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSignIn(key, address), staffErrors.throttled, now);
  const staff = await findStaffByEmail(ctx.db, request.email);
  const passwordOk = await verifyPassword(staff?.password_hash ?? (await decoyPasswordHash()), request.password);
  if (!staff?.password_hash || !passwordOk) throw staffErrors.invalidCredentials();
  // The right password: its earlier wrong guesses of the short window are forgiven (not the day's).
  await succeeded(ctx.db, slots, [subjects.staffSignIn(key)]);
  if (staff.status !== 'active') throw staffErrors.disabled();
  const started = await startHalfSession(ctx.db, staff.id, address, now);
  const secondFactors: SecondFactor[] = [];
  if ((await passkeysOf(ctx.db, staff.id)).length > 0) secondFactors.push('passkey');
  if (staff.totp_secret_sealed) secondFactors.push('totp');
  if ((await unusedRecoveryCodes(ctx.db, staff.id)) > 0) secondFactors.push('recoveryCode');
  return { started, reply: { secondFactors, expiresAt: started.session.absolute_expires_at } };
}

/**
 * The second step, on a half session: a slot of the person's second-factor limit first, then
 * the check; a right factor forgives the window's earlier wrong codes and swaps the half
 * session for a full one under a new id (the id that knew only the password stops working).
 */
export async function completeSecondFactor(
  ctx: StaffContext,
  half: { session: StaffSession; staff: Staff },
  address: string,
  check: () => Promise<boolean>,
  now: Date,
): Promise<{ started: StartedSession; me: StaffMe }> {
  const { staff } = half;
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSecondFactor(staff.id), staffErrors.throttled, now);
  if (!(await check())) throw staffErrors.secondFactorFailed();
  await succeeded(ctx.db, slots, [subjects.staffSecondFactor(staff.id)]);
  const started = await ctx.db.transaction().execute(async (trx) => {
    await endStaffSession(trx, half.session.id_hash);
    await updateStaff(trx, staff.id, { last_sign_in_at: now.toISOString() });
    return startFullSession(trx, staff.id, address, now);
  });
  return { started, me: await staffMe(ctx.db, staff, started.session) };
}

/**
 * A code of the authenticator app: right within ±1 step, and of a later step than any code taken
 * before (one conditional update, so a code works once, however many arrive together).
 */
export function totpCheck(ctx: StaffContext, staff: Staff, code: string, now: Date): () => Promise<boolean> {
  return async () => {
    const sealed = staff.totp_secret_sealed;
    if (!sealed) return false;
    const step = totpStep(await openTotpSecret(ctx.dataDir, staff.id, sealed), code, now);
    return step !== undefined && (await acceptTotpStep(ctx.db, staff.id, step));
  };
}

/** One of the person's recovery codes, each good once. */
export function recoveryCodeCheck(ctx: StaffContext, staff: Staff, code: string, now: Date): () => Promise<boolean> {
  return () => useRecoveryCode(ctx.db, staff.id, hashRecoveryCode(staff.id, code), now.toISOString());
}

export async function signInWithTotp(
  ctx: StaffContext,
  half: { session: StaffSession; staff: Staff },
  address: string,
  code: string,
  now = new Date(),
) {
  return completeSecondFactor(ctx, half, address, totpCheck(ctx, half.staff, code, now), now);
}

export async function signInWithRecoveryCode(
  ctx: StaffContext,
  half: { session: StaffSession; staff: Staff },
  address: string,
  code: string,
  now = new Date(),
) {
  return completeSecondFactor(ctx, half, address, recoveryCodeCheck(ctx, half.staff, code, now), now);
}
