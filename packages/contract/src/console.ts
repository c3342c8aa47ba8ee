import { z } from 'zod';
import type { PasswordRules } from './client.ts';

/**
 * The staff console's API (issue 17, docs/decisions/046): on the console's own origin
 * (CONSOLE_ORIGIN), with a cookie session and a second factor. Imported as
 * '@rewards/contract/console', so the participant's bundle never carries it.
 */
export const CONSOLE_API_BASE = '/api/console/v1';

export const consolePaths = {
  signIn: '/sign-in',
  signInTotp: '/sign-in/totp',
  signInRecoveryCode: '/sign-in/recovery-code',
  signOut: '/sign-out',
  me: '/me',
  enrolment: '/enrolment',
  enrolmentPassword: '/enrolment/password',
  enrolmentTotp: '/enrolment/totp',
  enrolmentPasskeyOptions: '/enrolment/passkey/options',
  enrolmentPasskey: '/enrolment/passkey',
  signInPasskeyOptions: '/sign-in/passkey/options',
  signInPasskey: '/sign-in/passkey',
  /** Issue 20 §6 (decision 068): how staff may sign in here, and sign-in through the installation's OpenID provider. */
  signInMethods: '/sign-in/methods',
  signInOidc: '/sign-in/oidc',
  signInOidcCallback: '/sign-in/oidc/callback',
  clients: '/clients',
  client: (clientId: string) => `/clients/${encodeURIComponent(clientId)}`,
} as const;

/**
 * The enrolment link's token travels in this header, never in a URL: the link puts it after the
 * `#` (which browsers never send), and the console sends it here, where no access log writes it.
 */
export const ENROLMENT_TOKEN_HEADER = 'x-enrolment-token';

/** Where the enrolment link points, on the console origin; the token follows the `#`. */
export const CONSOLE_ENROL_PATH = '/console/enrol';

/** Roles per client. An owner (a flag on the person, not a role) has the whole installation. */
export const STAFF_ROLES = ['program_manager', 'support_agent', 'auditor'] as const;
export const StaffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof StaffRole>;

/** Staff passwords: longer than most clients ask of participants (NIST SP 800-63B favours length). */
export const STAFF_PASSWORD_RULES: PasswordRules = {
  minLength: 12,
  maxLength: 200,
  requireUpper: true,
  requireLower: true,
  requireDigit: true,
  requireSymbol: false,
  notUsername: true,
};

/** The second factors a person can complete a sign-in with. */
export const SecondFactor = z.enum(['passkey', 'totp', 'recoveryCode']);
export type SecondFactor = z.infer<typeof SecondFactor>;

const Email = z.string().trim().min(3).max(320);

export const StaffSignInRequest = z.object({ email: Email, password: z.string().min(1).max(1024) });
export type StaffSignInRequest = z.infer<typeof StaffSignInRequest>;

/** The password was right: the half session (cookie) may only complete one of these factors, within `expiresAt`. */
export const StaffSignInReply = z.object({ secondFactors: z.array(SecondFactor), expiresAt: z.string() });
export type StaffSignInReply = z.infer<typeof StaffSignInReply>;

/** A time-based code (6 digits) or a recovery code (spaces and dashes are ignored). */
export const StaffCodeRequest = z.object({ code: z.string().trim().min(1).max(64) });
export type StaffCodeRequest = z.infer<typeof StaffCodeRequest>;

export const StaffRoleGrant = z.object({ clientId: z.string(), clientName: z.string(), role: StaffRole });
export type StaffRoleGrant = z.infer<typeof StaffRoleGrant>;

/** GET me: who is signed in, with the roles they hold per client. */
export const StaffMe = z.object({
  email: z.string(),
  name: z.string(),
  owner: z.boolean(),
  roles: z.array(StaffRoleGrant),
  /** When the second factor of this session was passed. */
  secondFactorAt: z.string(),
});
export type StaffMe = z.infer<typeof StaffMe>;

export const EnrolmentHeaders = z.looseObject({ [ENROLMENT_TOKEN_HEADER]: z.string().min(1).max(256) });

/** GET enrolment: whom a link is for, and the step it is at (a password set, the code not yet confirmed: totp). */
export const EnrolmentView = z.object({
  email: z.string(),
  name: z.string(),
  owner: z.boolean(),
  roles: z.array(StaffRoleGrant),
  expiresAt: z.string(),
  step: z.enum(['password', 'totp']),
  passwordRules: z.object({
    minLength: z.number().int(),
    maxLength: z.number().int(),
    requireUpper: z.boolean(),
    requireLower: z.boolean(),
    requireDigit: z.boolean(),
    requireSymbol: z.boolean(),
    notUsername: z.boolean(),
  }),
});
export type EnrolmentView = z.infer<typeof EnrolmentView>;

export const EnrolmentPasswordRequest = z.object({ password: z.string().min(1).max(1024) });
export type EnrolmentPasswordRequest = z.infer<typeof EnrolmentPasswordRequest>;

/** The authenticator's secret (base32) and the same as an otpauth:// URI for a QR code. */
export const EnrolmentPasswordReply = z.object({ totpSecret: z.string(), otpauthUri: z.string() });
export type EnrolmentPasswordReply = z.infer<typeof EnrolmentPasswordReply>;

/** The enrolment is complete (by a code or a passkey) and the person signed in: the recovery codes are shown this once. */
export const EnrolmentTotpReply = z.object({ recoveryCodes: z.array(z.string()), me: StaffMe });
export type EnrolmentTotpReply = z.infer<typeof EnrolmentTotpReply>;

/**
 * WebAuthn (passkeys), as @simplewebauthn/browser hands them over. The options are the
 * library's PublicKeyCredential{Creation,Request}OptionsJSON, passed to startRegistration /
 * startAuthentication as they are; the credential is what those return. Only the outline is
 * checked here: @simplewebauthn/server verifies the rest, signature included.
 */
export const PasskeyOptions = z.looseObject({ challenge: z.string() });
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;
const b64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/);
export const PasskeyCredential = z.looseObject({
  id: b64url.max(2048),
  rawId: b64url.max(2048),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: b64url }),
  clientExtensionResults: z.looseObject({}),
});
export const PasskeyRequest = z.object({ credential: PasskeyCredential });
export type PasskeyRequest = z.infer<typeof PasskeyRequest>;

export const ConsoleClient = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller's role in this client; null for an owner without one. */
  role: StaffRole.nullable(),
  origins: z.array(z.string()),
});
export type ConsoleClient = z.infer<typeof ConsoleClient>;
export const ConsoleClientList = z.array(ConsoleClient);
export const ConsoleClientParams = z.object({ clientId: z.string().min(1).max(64) });

/**
 * GET sign-in/methods (issue 20 §6, decision 068): what the sign-in page offers. `provider` is
 * the installation's OpenID provider (its button's name), null when none is configured.
 */
export const StaffSignInMethods = z.object({
  password: z.boolean(),
  provider: z.object({ name: z.string() }).nullable(),
});
export type StaffSignInMethods = z.infer<typeof StaffSignInMethods>;

/**
 * A page of the console to come back to after the provider (its path, query and fragment): only
 * `/console` or below on the console's own origin, so the redirect cannot lead anywhere else.
 */
export const ConsoleReturnPath = z
  .string()
  .max(500)
  .regex(/^\/console(?:[/?#][\x21-\x7e]*)?$/, 'a path of the console, starting with /console/');

/**
 * GET sign-in/oidc?fresh=1: the provider is asked to authenticate the person again (prompt=login,
 * max_age=0). With a full console session, that is a step-up (decision 068, amended): the provider's
 * second factor, if it reports one, is recorded on this session, and the browser comes back to `return`.
 */
export const StaffOidcStartQuery = z.object({ fresh: z.enum(['0', '1']).optional(), return: ConsoleReturnPath.optional() });

/**
 * How a step-up at the provider ended, in `?stepUp=<outcome>` on the page the person came back to.
 * The refused action is not sent again: the person presses it again.
 */
export const STAFF_STEP_UP_PARAM = 'stepUp';
export const StaffStepUpOutcome = z.enum([
  /** The provider reported a second factor: the session's factor is fresh. */
  'passed',
  /** The provider reported none: the session is unchanged; our code or passkey remains the way. */
  'noSecondFactor',
  /** The provider signed in someone else than this session's person: nothing changed. */
  'otherPerson',
  /** The session ended meanwhile (signed out, expired, disabled). */
  'ended',
  /** The answer could not be trusted (state, nonce, code, signature). */
  'error',
  /** The provider could not be reached. */
  'gateway',
  /** The provider said no (cancelled, access denied). */
  'refused',
]);
export type StaffStepUpOutcome = z.infer<typeof StaffStepUpOutcome>;

/**
 * Where the provider's callback sends the browser: the console's sign-in page with
 * `?oidc=<outcome>` (and `&factors=…` for `secondFactor`), or the console itself when signed in.
 */
export const STAFF_OIDC_OUTCOME_PARAM = 'oidc';
export const STAFF_OIDC_FACTORS_PARAM = 'factors';
export const StaffOidcOutcome = z.enum([
  /** The provider reported no second factor: pass one of ours (the `factors` listed) on the half session. */
  'secondFactor',
  /** No staff account has the provider's verified e-mail address (or it is linked to another subject). */
  'unknown',
  /** The account is disabled. */
  'disabled',
  /** The provider did not say the e-mail address is verified. */
  'unverified',
  /** The provider reported no second factor and the account has none of ours. */
  'noSecondFactor',
  /** The answer could not be trusted (state, nonce, code, signature) or came to another browser. */
  'error',
  /** The provider could not be reached. */
  'gateway',
  /** The provider said no (cancelled, access denied). */
  'refused',
  /** No provider is configured. */
  'off',
]);
export type StaffOidcOutcome = z.infer<typeof StaffOidcOutcome>;

/**
 * "Your account" (docs/decisions/070): a signed-in staff member's own password and second
 * factors. No id of a person in any path: the session says whose account it is.
 */
export const consoleAccountPaths = {
  /** GET: what the account has (a password here, the authenticator app, passkeys, recovery codes left). */
  account: '/account',
  /** PUT: the current password and a new one; the other sessions end. */
  password: '/account/password',
  /** POST: ten new recovery codes replace the whole set (fresh second factor). */
  recoveryCodes: '/account/recovery-codes',
  /** POST: WebAuthn creation options for one more passkey (fresh second factor). */
  passkeyOptions: '/account/passkeys/options',
  /** POST: the new passkey (fresh second factor). */
  passkeys: '/account/passkeys',
  /** POST: a new authenticator secret, shown with its QR code, sealed for the confirmation (fresh second factor; none set up yet). */
  totpSecret: '/account/totp/secret',
  /** POST: a code of that secret makes it the account's authenticator app (fresh second factor). */
  totp: '/account/totp',
  /** DELETE: one passkey, if another second factor remains (fresh second factor). */
  passkey: (passkeyId: string) => `/account/passkeys/${encodeURIComponent(passkeyId)}`,
} as const;

export const StaffPasskeyView = z.object({ id: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type StaffPasskeyView = z.infer<typeof StaffPasskeyView>;

export const StaffAccount = z.object({
  email: z.string(),
  name: z.string(),
  /** false: the account signs in only through the installation's OpenID provider (no password here to change). */
  password: z.boolean(),
  passwordRules: EnrolmentView.shape.passwordRules,
  /** An authenticator app (TOTP) is set up. */
  totp: z.boolean(),
  passkeys: z.array(StaffPasskeyView),
  /** Unused recovery codes: a count, never the codes. */
  recoveryCodesLeft: z.number().int(),
});
export type StaffAccount = z.infer<typeof StaffAccount>;

export const StaffPasswordChangeRequest = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});
export type StaffPasswordChangeRequest = z.infer<typeof StaffPasswordChangeRequest>;
export const StaffPasswordChangeReply = z.object({ otherSessionsEnded: z.number().int() });
export type StaffPasswordChangeReply = z.infer<typeof StaffPasswordChangeReply>;

/** The new recovery codes, shown this once; only their hashes are kept. */
export const StaffRecoveryCodesReply = z.object({ recoveryCodes: z.array(z.string()) });
export type StaffRecoveryCodesReply = z.infer<typeof StaffRecoveryCodesReply>;

export const StaffPasskeyParams = z.object({
  passkeyId: b64url.min(1).max(2048),
});

/**
 * A new authenticator secret for an account without one: the secret and its otpauth:// URI to
 * show, and the same secret sealed with the installation's key for this person, which the
 * confirmation sends back (the server keeps nothing until a code proves the app has it).
 */
export const StaffTotpSecretReply = z.object({ totpSecret: z.string(), otpauthUri: z.string(), sealed: z.string() });
export type StaffTotpSecretReply = z.infer<typeof StaffTotpSecretReply>;
export const StaffTotpConfirmRequest = z.object({ sealed: z.string().min(1).max(1024), code: z.string().trim().min(1).max(64) });
export type StaffTotpConfirmRequest = z.infer<typeof StaffTotpConfirmRequest>;
