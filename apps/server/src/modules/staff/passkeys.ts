import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyOptions, PasskeyRequest } from '@rewards/contract/console';
import type { Staff, StaffSession } from './tables.ts';
import { limitsOf, STAFF_LIMITS_SCOPE, subjects } from '../limits/policy.ts';
import { succeeded, takeSlots } from '../limits/service.ts';
import { completeEnrolment, openEnrolment, type CompletedEnrolment } from './enrolment.ts';
import { staffErrors } from './errors.ts';
import { completeSecondFactor, type StaffContext } from './sign-in.ts';
import {
  findPasskey,
  passkeysOf,
  recordPasskeyUse,
  setEnrolmentChallenge,
  setSessionChallenge,
  takeEnrolmentChallenge,
  takeSessionChallenge,
} from './store.ts';
import type { LiveStaffSession } from './sessions.ts';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server (docs/decisions/046): the relying party is
 * the console's host, the only origin accepted is CONSOLE_ORIGIN. Each challenge is kept on the
 * row it belongs to (the enrolment, or the half session) and taken by the one check that uses
 * it, so a response is verified at most once.
 */
const RP_NAME = 'Rewards console';

function relyingParty(ctx: StaffContext) {
  return { rpID: new URL(ctx.consoleOrigin).hostname, origin: ctx.consoleOrigin };
}

const transportsOf = (json: string) => JSON.parse(json) as AuthenticatorTransport[];

/** The library's verification throws on any mismatch (origin, challenge, signature, counter): each is a wrong factor. */
async function verified<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch {
    return undefined;
  }
}

/** Options to create a passkey for this person on this console, the ones they have excluded (enrolment, your account). */
async function registrationOptions(ctx: StaffContext, staff: { id: string; email: string; name: string }) {
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(ctx).rpID,
    userName: staff.email,
    userDisplayName: staff.name,
    userID: new TextEncoder().encode(staff.id),
    attestationType: 'none',
    excludeCredentials: (await passkeysOf(ctx.db, staff.id)).map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Enrolment, after the password: options to create a passkey for this person on this console. */
export async function enrolmentPasskeyOptions(ctx: StaffContext, token: string, now = new Date()): Promise<PasskeyOptions> {
  const { enrolment, staff } = await openEnrolment(ctx, token, now);
  if (!enrolment.password_hash) throw staffErrors.enrolmentStep();
  const options = await registrationOptions(ctx, staff);
  await setEnrolmentChallenge(ctx.db, enrolment.token_hash, options.challenge);
  return { ...options };
}

/** Enrolment completed by a new passkey instead of a TOTP code; limited like a code. */
export async function confirmEnrolmentWithPasskey(
  ctx: StaffContext,
  token: string,
  request: PasskeyRequest,
  address: string,
  now = new Date(),
): Promise<CompletedEnrolment> {
  const { enrolment, staff } = await openEnrolment(ctx, token, now);
  if (!enrolment.password_hash) throw staffErrors.enrolmentStep();
  const slots = await takeSlots(ctx.db, STAFF_LIMITS_SCOPE, limitsOf(ctx.limits).staffSecondFactor(staff.id), staffErrors.throttled, now);
  const challenge = await takeEnrolmentChallenge(ctx.db, enrolment.token_hash);
  if (!challenge) throw staffErrors.secondFactorFailed();
  const { rpID, origin } = relyingParty(ctx);
  const result = await verified(() =>
    verifyRegistrationResponse({
      // The contract checked the outline; the library checks every field it reads.
      response: request.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }),
  );
  if (!result?.verified) throw staffErrors.secondFactorFailed();
  await succeeded(ctx.db, slots, [subjects.staffSecondFactor(staff.id)]);
  const { credential } = result.registrationInfo;
  const passkey = {
    id: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
  return completeEnrolment(ctx, enrolment, staff, { kind: 'passkey', passkey }, address, now);
}

/** A session's request for a passkey (a half one at sign-in, a full one at a step-up): options naming the person's passkeys, with a new challenge kept on the session. */
export async function signInPasskeyOptions(ctx: StaffContext, half: { session: StaffSession; staff: Staff }): Promise<PasskeyOptions> {
  const passkeys = await passkeysOf(ctx.db, half.staff.id);
  if (passkeys.length === 0) throw staffErrors.noPasskey();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    userVerification: 'preferred',
  });
  await setSessionChallenge(ctx.db, half.session.id_hash, options.challenge);
  return { ...options };
}

/**
 * The passkey's answer to the challenge kept on this session (a half one at sign-in, a full one
 * at a step-up), taken by this one check: verified at most once; the counter is kept.
 */
export function passkeyCheck(
  ctx: StaffContext,
  live: { session: StaffSession; staff: Staff },
  request: PasskeyRequest,
  now: Date,
): () => Promise<boolean> {
  return async () => {
    const challenge = await takeSessionChallenge(ctx.db, live.session.id_hash);
    const passkey = await findPasskey(ctx.db, live.staff.id, request.credential.id);
    if (!challenge || !passkey) return false;
    const { rpID, origin } = relyingParty(ctx);
    const result = await verified(() =>
      verifyAuthenticationResponse({
        response: request.credential as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: passkey.id,
          publicKey: Buffer.from(passkey.public_key, 'base64url'),
          counter: Number(passkey.counter),
          transports: transportsOf(passkey.transports),
        },
        requireUserVerification: false,
      }),
    );
    if (!result?.verified) return false;
    await recordPasskeyUse(ctx.db, passkey.id, result.authenticationInfo.newCounter, now.toISOString());
    return true;
  };
}

/** The passkey's answer to this half session's challenge completes the sign-in, as a TOTP code does. */
export async function signInWithPasskey(
  ctx: StaffContext,
  half: { session: StaffSession; staff: Staff },
  address: string,
  request: PasskeyRequest,
  now = new Date(),
) {
  return completeSecondFactor(ctx, half, address, passkeyCheck(ctx, half, request, now), now);
}

/** Your account (decision 070): options to create one more passkey, the person's own excluded; the challenge kept on the session. */
export async function accountPasskeyOptions(ctx: StaffContext, live: LiveStaffSession): Promise<PasskeyOptions> {
  const { staff, session } = live;
  const options = await registrationOptions(ctx, staff);
  await setSessionChallenge(ctx.db, session.id_hash, options.challenge);
  return { ...options };
}

/** The authenticator's answer to the session's creation challenge (taken by this one check): the new passkey, or undefined. */
export async function verifyNewPasskey(
  ctx: StaffContext,
  live: LiveStaffSession,
  request: PasskeyRequest,
): Promise<{ id: string; publicKey: string; counter: number; transports: string[] } | undefined> {
  const challenge = await takeSessionChallenge(ctx.db, live.session.id_hash);
  if (!challenge) return undefined;
  const { rpID, origin } = relyingParty(ctx);
  const result = await verified(() =>
    verifyRegistrationResponse({
      // The contract checked the outline; the library checks every field it reads.
      response: request.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }),
  );
  if (!result?.verified) return undefined;
  const { credential } = result.registrationInfo;
  return {
    id: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}
