import { checkPasswordRules } from '@rewards/contract';
import {
  STAFF_PASSWORD_RULES,
  type PasskeyOptions,
  type PasskeyRequest,
  type StaffAccount,
  type StaffPasswordChangeReply,
  type StaffPasswordChangeRequest,
  type StaffRecoveryCodesReply,
  type StaffTotpConfirmRequest,
  type StaffTotpSecretReply,
} from '@rewards/contract/console';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { recordAudit } from '../audit/service.ts';
import { limitsOf, STAFF_LIMITS_SCOPE, subjects } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';
import { ruleName } from './enrolment.ts';
import { staffErrors } from './errors.ts';
import { accountPasskeyOptions, verifyNewPasskey } from './passkeys.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, openTotpSecret, otpauthUri, sealTotpSecret, totpStep } from './secrets.ts';
import type { LiveStaffSession } from './sessions.ts';
import type { StaffContext } from './sign-in.ts';
import {
  deleteOtherStaffSessions,
  deletePasskey,
  findStaffById,
  insertPasskey,
  lockStaff,
  passkeyExists,
  passkeysOf,
  replaceRecoveryCodes,
  setTotpIfNone,
  unusedRecoveryCodes,
  updateStaff,
} from './store.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * "Your account" (docs/decisions/070): what a signed-in staff member may do to their own
 * account, whatever their roles. Always the session's own person: nothing here takes an id of
 * a person. Every change is audited as the person, from their address; no secret goes in.
 */

type Audited = { live: LiveStaffSession; address: string };

function audit(db: Kysely<Database>, { live, address }: Audited, action: string, details: Record<string, unknown>, now: Date) {
  return recordAudit(
    db,
    { clientId: null, actor: live.staff.email, actorKind: 'staff', action, subject: live.staff.id, details, origin: address },
    now,
  );
}

/** GET account: read again (not from the session's copy), so a change just made shows. */
export async function viewOwnAccount(ctx: StaffContext, live: LiveStaffSession): Promise<StaffAccount> {
  const staff = (await findStaffById(ctx.db, live.staff.id)) ?? live.staff;
  const [passkeys, recoveryCodesLeft] = await Promise.all([passkeysOf(ctx.db, staff.id), unusedRecoveryCodes(ctx.db, staff.id)]);
  return {
    email: staff.email,
    name: staff.name,
    password: staff.password_hash !== null,
    passwordRules: STAFF_PASSWORD_RULES,
    totp: staff.totp_secret_sealed !== null,
    passkeys: passkeys.map((p) => ({ id: p.id, createdAt: p.created_at, lastUsedAt: p.last_used_at })),
    recoveryCodesLeft,
  };
}

/**
 * PUT account/password. The checks that need no secret come first, so a refused new password
 * costs no attempt; then a slot of the same limits as the sign-in's password step (per e-mail,
 * its daily twin, per address) before the hash is checked, so a stolen session cannot guess the
 * password faster than the sign-in page could. On success the person's other sessions end
 * (whoever held one may have known the old password); this one stays.
 */
export async function changeOwnPassword(
  ctx: StaffContext,
  live: LiveStaffSession,
  address: string,
  request: StaffPasswordChangeRequest,
  now = new Date(),
): Promise<StaffPasswordChangeReply> {
  const staff = (await findStaffById(ctx.db, live.staff.id)) ?? live.staff;
  if (!staff.password_hash) throw staffErrors.noPassword();
  if (!checkPasswordRules(STAFF_PASSWORD_RULES, request.newPassword, ruleName(staff.email)).every((r) => r.met))
    throw staffErrors.passwordRulesNotMet();
  if (request.newPassword === request.currentPassword) throw staffErrors.samePassword();

  const key = staff.email_key;
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSignIn(key, address), staffErrors.throttled, now);
  if (!(await verifyPassword(staff.password_hash, request.currentPassword))) throw staffErrors.wrongCurrentPassword();
  await succeeded(ctx.db, slots, [subjects.staffSignIn(key)]);

  const passwordHash = await hashPassword(request.newPassword);
  const otherSessionsEnded = await ctx.db.transaction().execute(async (trx) => {
    await updateStaff(trx, staff.id, { password_hash: passwordHash });
    const ended = await deleteOtherStaffSessions(trx, staff.id, live.session.id_hash);
    await audit(trx, { live, address }, 'staff.password_changed', { otherSessionsEnded: ended }, now);
    return ended;
  });
  return { otherSessionsEnded };
}

/** POST account/recovery-codes (fresh second factor): ten new codes replace the whole set, returned this once. */
export async function renewOwnRecoveryCodes(
  ctx: StaffContext,
  live: LiveStaffSession,
  address: string,
  now = new Date(),
): Promise<StaffRecoveryCodesReply> {
  const recoveryCodes = newRecoveryCodes();
  const staffId = live.staff.id;
  await ctx.db.transaction().execute(async (trx) => {
    const before = await unusedRecoveryCodes(trx, staffId);
    await replaceRecoveryCodes(
      trx,
      staffId,
      recoveryCodes.map((code) => hashRecoveryCode(staffId, code)),
      now.toISOString(),
    );
    await audit(trx, { live, address }, 'staff.recovery_codes_renewed', { unusedBefore: before, count: recoveryCodes.length }, now);
  });
  return { recoveryCodes };
}

/** POST account/passkeys/options (fresh second factor). */
export function ownPasskeyOptions(ctx: StaffContext, live: LiveStaffSession): Promise<PasskeyOptions> {
  return accountPasskeyOptions(ctx, live);
}

/** POST account/passkeys (fresh second factor): the verified new passkey becomes the person's. */
export async function addOwnPasskey(
  ctx: StaffContext,
  live: LiveStaffSession,
  address: string,
  request: PasskeyRequest,
  now = new Date(),
): Promise<StaffAccount> {
  const passkey = await verifyNewPasskey(ctx, live, request);
  // A credential registered already (the browser was told to exclude the person's own) is refused rather than replaced.
  if (!passkey || (await passkeyExists(ctx.db, passkey.id))) throw staffErrors.passkeyRefused();
  const nowIso = now.toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await insertPasskey(trx, {
      id: passkey.id,
      staff_id: live.staff.id,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: JSON.stringify(passkey.transports),
      created_at: nowIso,
    });
    await audit(trx, { live, address }, 'staff.passkey_added', { passkeyId: passkey.id }, now);
  });
  return viewOwnAccount(ctx, live);
}

/**
 * DELETE account/passkeys/:passkeyId (fresh second factor): only while another second factor
 * that signs in day to day remains, the authenticator app or another passkey (recovery codes are
 * a way back in, not a factor to live on). Counted under the person's row lock.
 */
export async function removeOwnPasskey(
  ctx: StaffContext,
  live: LiveStaffSession,
  address: string,
  passkeyId: string,
  now = new Date(),
): Promise<StaffAccount> {
  await ctx.db.transaction().execute(async (trx) => {
    const staff = await lockStaff(trx, live.staff.id);
    if (!staff) throw staffErrors.notFound();
    const passkeys = await passkeysOf(trx, staff.id);
    if (!passkeys.some((p) => p.id === passkeyId)) throw staffErrors.passkeyNotFound();
    if (staff.totp_secret_sealed === null && passkeys.length < 2) throw staffErrors.lastSecondFactor();
    await deletePasskey(trx, staff.id, passkeyId);
    await audit(trx, { live, address }, 'staff.passkey_removed', { passkeyId, passkeysLeft: passkeys.length - 1 }, now);
  });
  return viewOwnAccount(ctx, live);
}

/**
 * POST account/totp/secret (fresh second factor): for an account without an authenticator app
 * (one that enrolled with a passkey, or through the provider), a new secret to show, and the same
 * sealed for this person (AES-GCM with the installation's key, the staff id bound in), which the
 * confirmation sends back: nothing is stored until a code proves the app holds it, and no
 * secret but the server's own can come back.
 */
export async function newOwnTotpSecret(ctx: StaffContext, live: LiveStaffSession): Promise<StaffTotpSecretReply> {
  const staff = (await findStaffById(ctx.db, live.staff.id)) ?? live.staff;
  if (staff.totp_secret_sealed !== null) throw staffErrors.totpAlreadySet();
  const secret = newTotpSecret();
  return { totpSecret: secret, otpauthUri: otpauthUri(secret, staff.email), sealed: await sealTotpSecret(ctx.dataDir, staff.id, secret) };
}

/**
 * POST account/totp (fresh second factor): a code of the sealed secret, limited like any
 * second-factor code (a slot first), makes it the account's authenticator app, the code's step
 * taken. A secret sealed for someone else, or altered, fails as a wrong code.
 */
export async function confirmOwnTotp(
  ctx: StaffContext,
  live: LiveStaffSession,
  address: string,
  request: StaffTotpConfirmRequest,
  now = new Date(),
): Promise<StaffAccount> {
  const staff = (await findStaffById(ctx.db, live.staff.id)) ?? live.staff;
  if (staff.totp_secret_sealed !== null) throw staffErrors.totpAlreadySet();
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSecondFactor(staff.id), staffErrors.throttled, now);
  const secret = await openTotpSecret(ctx.dataDir, staff.id, request.sealed).catch(() => undefined);
  const step = secret === undefined ? undefined : totpStep(secret, request.code, now);
  if (step === undefined) throw staffErrors.secondFactorFailed();
  await succeeded(ctx.db, slots, [subjects.staffSecondFactor(staff.id)]);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await setTotpIfNone(trx, staff.id, request.sealed, step))) throw staffErrors.totpAlreadySet();
    await audit(trx, { live, address }, 'staff.totp_added', {}, now);
  });
  return viewOwnAccount(ctx, live);
}
