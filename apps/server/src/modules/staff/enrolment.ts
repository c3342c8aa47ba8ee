import { checkPasswordRules } from '@rewards/contract';
import {
  STAFF_PASSWORD_RULES,
  type EnrolmentPasswordReply,
  type EnrolmentView,
  type StaffMe,
  type StaffRole,
} from '@rewards/contract/console';
import type { Staff, StaffEnrolment } from './tables.ts';
import { hashPassword } from '../auth/password.ts';
import { recordAudit } from '../audit/service.ts';
import { limitsOf, STAFF_LIMITS_SCOPE, subjects } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';
import { staffErrors } from './errors.ts';
import {
  hashEnrolmentToken,
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  openTotpSecret,
  otpauthUri,
  sealTotpSecret,
  totpStep,
} from './secrets.ts';
import { startFullSession, staffMe, type StartedSession } from './sessions.ts';
import type { StaffContext } from './sign-in.ts';
import {
  claimEnrolment,
  deleteStaffSessionsOf,
  findEnrolment,
  findStaffById,
  insertPasskey,
  replaceRecoveryCodes,
  setEnrolmentSecrets,
  updateStaff,
} from './store.ts';
import { rolesOf } from './roles.ts';

/**
 * What the rules' "not the username" compares: the part of the address before the @, when it is
 * long enough to mean something (a password may contain "al" even if Al's address is al@…).
 */
export function ruleName(email: string): string {
  const local = email.split('@')[0] ?? '';
  return [...local].length >= 4 ? local : '';
}

/**
 * The enrolment a token opens, if it can still be used: unknown tokens are invalid, used ones
 * a conflict, old ones expired; a disabled person cannot enrol.
 */
export async function openEnrolment(ctx: StaffContext, token: string, now: Date): Promise<{ enrolment: StaffEnrolment; staff: Staff }> {
  const enrolment = await findEnrolment(ctx.db, hashEnrolmentToken(token));
  if (!enrolment) throw staffErrors.enrolmentInvalid();
  if (enrolment.used_at) throw staffErrors.enrolmentUsed();
  if (!(Date.parse(enrolment.expires_at) > now.getTime())) throw staffErrors.enrolmentExpired();
  const staff = await findStaffById(ctx.db, enrolment.staff_id);
  if (!staff) throw staffErrors.enrolmentInvalid();
  if (staff.status !== 'active') throw staffErrors.disabled();
  return { enrolment, staff };
}

/** GET enrolment: whom the link is for and the step it is at. */
export async function viewEnrolment(ctx: StaffContext, token: string, now = new Date()): Promise<EnrolmentView> {
  const { enrolment, staff } = await openEnrolment(ctx, token, now);
  const roles = await rolesOf(ctx.db, staff.id);
  return {
    email: staff.email,
    name: staff.name,
    owner: staff.owner === 1,
    roles: roles.map((r) => ({ clientId: r.client_id, clientName: r.client_name, role: r.role as StaffRole })),
    expiresAt: enrolment.expires_at,
    step: enrolment.password_hash ? 'totp' : 'password',
    passwordRules: STAFF_PASSWORD_RULES,
  };
}

/**
 * The password step: checked against the staff rules, hashed, and kept on the enrolment with a
 * new TOTP secret (sealed) until the code confirms it. Asked again, it starts over with a new secret.
 */
export async function setEnrolmentPassword(
  ctx: StaffContext,
  token: string,
  password: string,
  now = new Date(),
): Promise<EnrolmentPasswordReply> {
  const { enrolment, staff } = await openEnrolment(ctx, token, now);
  if (!checkPasswordRules(STAFF_PASSWORD_RULES, password, ruleName(staff.email)).every((r) => r.met))
    throw staffErrors.passwordRulesNotMet();
  const secret = newTotpSecret();
  const [passwordHash, sealed] = await Promise.all([hashPassword(password), sealTotpSecret(ctx.dataDir, staff.id, secret)]);
  await setEnrolmentSecrets(ctx.db, enrolment.token_hash, passwordHash, sealed);
  return { totpSecret: secret, otpauthUri: otpauthUri(secret, staff.email) };
}

/** How the enrolment's second factor was proven: a code of the new TOTP secret, or a new passkey. */
export type EnrolmentFactor =
  | { kind: 'totp'; step: number; sealedSecret: string }
  | { kind: 'passkey'; passkey: { id: string; publicKey: string; counter: number; transports: string[] } };

/**
 * The code step: a right code of the new secret (limited per person like a sign-in's) completes
 * the enrolment.
 */
export async function confirmEnrolment(
  ctx: StaffContext,
  token: string,
  code: string,
  address: string,
  now = new Date(),
): Promise<CompletedEnrolment> {
  const { enrolment, staff } = await openEnrolment(ctx, token, now);
  if (!enrolment.password_hash || !enrolment.totp_secret_sealed) throw staffErrors.enrolmentStep();
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSecondFactor(staff.id), staffErrors.throttled, now);
  const step = totpStep(await openTotpSecret(ctx.dataDir, staff.id, enrolment.totp_secret_sealed), code, now);
  if (step === undefined) throw staffErrors.secondFactorFailed();
  await succeeded(ctx.db, slots, [subjects.staffSecondFactor(staff.id)]);
  return completeEnrolment(ctx, enrolment, staff, { kind: 'totp', step, sealedSecret: enrolment.totp_secret_sealed }, address, now);
}

export interface CompletedEnrolment {
  started: StartedSession;
  recoveryCodes: string[];
  me: StaffMe;
}

/**
 * One transaction: the link is used (by exactly one caller), the password and the factor become
 * the person's, ten new recovery codes replace any old ones, and a full session starts. The
 * codes are returned this once; only their hashes are kept.
 */
export async function completeEnrolment(
  ctx: StaffContext,
  enrolment: StaffEnrolment,
  staff: Staff,
  factor: EnrolmentFactor,
  address: string,
  now: Date,
): Promise<CompletedEnrolment> {
  const recoveryCodes = newRecoveryCodes();
  const nowIso = now.toISOString();
  const started = await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimEnrolment(trx, enrolment.token_hash, nowIso))) throw staffErrors.enrolmentUsed();
    await updateStaff(trx, staff.id, {
      password_hash: enrolment.password_hash,
      ...(factor.kind === 'totp' ? { totp_secret_sealed: factor.sealedSecret, totp_last_step: factor.step } : {}),
      enrolled_at: nowIso,
      last_sign_in_at: nowIso,
    });
    if (factor.kind === 'passkey') {
      const { id, publicKey, counter, transports } = factor.passkey;
      await insertPasskey(trx, {
        id,
        staff_id: staff.id,
        public_key: publicKey,
        counter,
        transports: JSON.stringify(transports),
        created_at: nowIso,
      });
    }
    await replaceRecoveryCodes(
      trx,
      staff.id,
      recoveryCodes.map((c) => hashRecoveryCode(staff.id, c)),
      nowIso,
    );
    // Other links of the person stop working; so does any session from before.
    await trx.deleteFrom('staff_enrolments').where('staff_id', '=', staff.id).where('token_hash', '!=', enrolment.token_hash).execute();
    await deleteStaffSessionsOf(trx, staff.id);
    await recordAudit(
      trx,
      {
        clientId: null,
        actor: staff.email,
        actorKind: 'staff',
        action: 'staff.enrol',
        subject: staff.email,
        details: { secondFactor: factor.kind },
        origin: address,
      },
      now,
    );
    return startFullSession(trx, staff.id, address, now);
  });
  return { started, recoveryCodes, me: await staffMe(ctx.db, staff, started.session) };
}
