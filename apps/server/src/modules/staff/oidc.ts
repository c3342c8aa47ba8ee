import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import {
  CONSOLE_API_BASE,
  STAFF_OIDC_FACTORS_PARAM,
  STAFF_OIDC_OUTCOME_PARAM,
  consolePaths,
  type SecondFactor,
  type StaffOidcOutcome,
  type StaffSignInMethods,
} from '@rewards/contract/console';
import type { StaffOidcConfig } from '../../config.ts';
import { recordAudit } from '../audit/service.ts';
import { isUnreachable, providerConfig } from '../sso/provider.ts';
import { startFullSession, startHalfSession, STAFF_SESSION, type StartedSession } from './sessions.ts';
import type { StaffContext } from './sign-in.ts';
import type { Staff } from './tables.ts';
import { deleteExpiredOidcLogins, insertOidcLogin, linkSubject, staffBySubject, subjectOf, takeOidcLogin } from './oidc-store.ts';
import { findStaffByEmail, passkeysOf, unusedRecoveryCodes, updateStaff } from './store.ts';

/**
 * Staff sign-in through the installation's own OpenID provider (issue 20 §6, docs/decisions/068),
 * with the participant SSO's libraries (openid-client through modules/sso/provider.ts):
 * authorization code with PKCE, state (single use, bound to the browser by a cookie) and nonce.
 * The provider says who the person is; the staff account and its roles are ours. The provider's
 * second factor stands in for ours only when its ID token says one was used.
 */

/** A sign-in must come back from the provider within this. */
const LOGIN_TTL_MS = 10 * 60_000;
/** The discovered configuration is cached under this key (a client id can never be it). */
const PROVIDER_CACHE_KEY = '*console';
const SCOPES = 'openid email profile';

/**
 * `amr` values (RFC 8176) that mean more than a password was used: the generic multi-factor and
 * multiple-channel, one-time codes, hardware and software keys, proof of possession, SMS, smart card.
 * `pwd`, `kba`, `pin` or a biometric alone do not.
 */
export const MULTI_FACTOR_AMR = ['mfa', 'mca', 'otp', 'hwk', 'swk', 'pop', 'sms', 'sc'] as const;

/** Where the console's pages are, on its origin. */
const CONSOLE_HOME = '/console/';
const SIGN_IN_PAGE = '/console/sign-in';

export function redirectUri(consoleOrigin: string): string {
  return `${consoleOrigin}${CONSOLE_API_BASE}${consolePaths.signInOidcCallback}`;
}

/** The sign-in page with an outcome the page explains. */
export function outcomeLocation(outcome: StaffOidcOutcome, factors?: SecondFactor[]): string {
  const query = new URLSearchParams({ [STAFF_OIDC_OUTCOME_PARAM]: outcome });
  if (factors) query.set(STAFF_OIDC_FACTORS_PARAM, factors.join(','));
  return `${SIGN_IN_PAGE}?${query}`;
}

export function signInMethods(settings: { password: boolean; oidc: StaffOidcConfig | undefined }): StaffSignInMethods {
  return { password: settings.password, provider: settings.oidc ? { name: settings.oidc.name } : null };
}

/** Where to send the browser; the session to set when someone got in; what the log should say when not. */
export interface OidcOutcome {
  location: string;
  started?: StartedSession;
  full?: boolean;
  refused?: { reason: string; detail?: Record<string, unknown> };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function providerOf(settings: StaffOidcConfig): Promise<oidc.Configuration> {
  return providerConfig(PROVIDER_CACHE_KEY, { issuer: settings.issuer, clientId: settings.clientId, clientSecret: settings.clientSecret });
}

/** A library error for the log: its code and first line, nothing the provider sent (no token, no code). */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: 'unknown' };
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? error.cause.message.split('\n')[0]?.slice(0, 200) : undefined;
  return {
    ...(typeof code === 'string' ? { errorCode: code } : {}),
    ...(cause ? { cause } : {}),
    message: error.message.split('\n')[0]?.slice(0, 200),
  };
}

export interface BeginOidc extends OidcOutcome {
  /** The random value the browser must bring back to the callback (its cookie). */
  browserBinding?: string;
}

/**
 * GET sign-in/oidc: records the sign-in under way and sends the browser to the provider. `fresh`
 * asks the provider to authenticate again (prompt=login, max_age=0): a new session whose factor
 * is fresh, the step-up of someone who signs in through the provider only.
 */
export async function beginOidcSignIn(
  ctx: StaffContext,
  settings: StaffOidcConfig | undefined,
  fresh: boolean,
  now = new Date(),
): Promise<BeginOidc> {
  if (!settings) return { location: outcomeLocation('off'), refused: { reason: 'no OpenID provider is configured for staff' } };
  let config: oidc.Configuration;
  try {
    config = await providerOf(settings);
  } catch (error) {
    return {
      location: outcomeLocation('gateway'),
      refused: { reason: 'the provider cannot be discovered', detail: { issuer: settings.issuer, ...describe(error) } },
    };
  }
  await deleteExpiredOidcLogins(ctx.db, now.toISOString());
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browserBinding = randomBytes(32).toString('base64url');
  // A provider session older than the console's longest session is not taken as it is.
  const maxAge = fresh ? 0 : STAFF_SESSION.maxHours * 3600;
  await insertOidcLogin(ctx.db, {
    state,
    nonce,
    code_verifier: codeVerifier,
    browser_hash: sha256(browserBinding),
    max_age: maxAge,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + LOGIN_TTL_MS).toISOString(),
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(ctx.consoleOrigin),
    scope: SCOPES,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    max_age: String(maxAge),
    ...(fresh ? { prompt: 'login' } : {}),
  });
  return { location: url.href, browserBinding };
}

export interface OidcCallbackInput {
  /** The callback's query string, without '?', exactly as the provider sent it. */
  search: string;
  state: string | undefined;
  error: string | undefined;
  /** The cookie set by beginOidcSignIn, if the browser brought it. */
  browserBinding: string | undefined;
}

/** What the provider vouched for, as far as the console needs it. */
interface Identity {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  amr: string[];
  acr: string | undefined;
  authTime: number | undefined;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Whether the provider says more than one factor was used: an amr method of MULTI_FACTOR_AMR, or an acr the installation lists. */
export function providerMultiFactor(identity: Pick<Identity, 'amr' | 'acr'>, mfaAcr: readonly string[]): boolean {
  if (identity.amr.some((method) => (MULTI_FACTOR_AMR as readonly string[]).includes(method.toLowerCase()))) return true;
  return identity.acr !== undefined && mfaAcr.includes(identity.acr);
}

/**
 * GET sign-in/oidc/callback: the state (single use, this browser's, in time), the provider's
 * answer through openid-client (code with PKCE, ID token signature, issuer, audience, expiry,
 * nonce, auth_time against max_age), then the staff account: the one linked to the provider's
 * subject, else the one of its verified e-mail address (linked now). With a multi-factor sign-in
 * at the provider, a full session; otherwise a half session that our second factor completes.
 */
export async function completeOidcSignIn(
  ctx: StaffContext,
  settings: StaffOidcConfig | undefined,
  input: OidcCallbackInput,
  address: string,
  now = new Date(),
): Promise<OidcOutcome> {
  if (!input.state || input.state.length > 200)
    return { location: outcomeLocation('error'), refused: { reason: 'the callback carries no state' } };
  const login = await takeOidcLogin(ctx.db, input.state);
  if (!login)
    return { location: outcomeLocation('error'), refused: { reason: 'unknown or already used state (replayed or forged callback)' } };
  if (login.expires_at <= now.toISOString())
    return { location: outcomeLocation('error'), refused: { reason: 'the sign-in took too long (state expired)' } };
  if (!input.browserBinding || sha256(input.browserBinding) !== login.browser_hash)
    return {
      location: outcomeLocation('error'),
      refused: { reason: 'the callback came to another browser than the one that started the sign-in' },
    };
  if (input.error)
    return {
      location: outcomeLocation('refused'),
      refused: { reason: 'the provider refused the sign-in', detail: { oauthError: input.error.slice(0, 100) } },
    };
  if (!settings) return { location: outcomeLocation('off'), refused: { reason: 'the OpenID provider was turned off during the sign-in' } };

  let identity: Identity;
  try {
    const config = await providerOf(settings);
    const currentUrl = new URL(redirectUri(ctx.consoleOrigin));
    currentUrl.search = input.search;
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: login.code_verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
      ...(login.max_age === null ? {} : { maxAge: login.max_age }),
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    let { email, email_verified: verified } = claims as { email?: unknown; email_verified?: unknown };
    // Many providers put the e-mail address in userinfo only.
    if (typeof email !== 'string') {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = info.email;
      verified = info.email_verified;
    }
    identity = {
      sub: claims.sub,
      email: typeof email === 'string' && email.length <= 320 ? email : undefined,
      // Some providers send the flag as a string.
      emailVerified: verified === true || verified === 'true',
      amr: strings(claims.amr),
      acr: typeof claims.acr === 'string' ? claims.acr : undefined,
      authTime: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
    };
  } catch (error) {
    if (isUnreachable(error))
      return { location: outcomeLocation('gateway'), refused: { reason: 'the provider cannot be reached', detail: describe(error) } };
    return { location: outcomeLocation('error'), refused: { reason: "the provider's answer failed the checks", detail: describe(error) } };
  }
  return admit(ctx, settings, identity, address, now);
}

/** The person the provider vouched for, let in (full or half) or refused; audited either way. */
async function admit(ctx: StaffContext, settings: StaffOidcConfig, identity: Identity, address: string, now: Date): Promise<OidcOutcome> {
  const { db } = ctx;
  const multiFactor = providerMultiFactor(identity, settings.mfaAcr);
  const seen = { method: 'oidc', sub: identity.sub, email: identity.email ?? null, amr: identity.amr, acr: identity.acr ?? null };
  const refuse = async (outcome: StaffOidcOutcome, reason: string, staff?: Staff): Promise<OidcOutcome> => {
    await recordAudit(
      db,
      {
        clientId: null,
        actor: staff?.email ?? identity.email ?? `oidc:${identity.sub.slice(0, 200)}`,
        actorKind: 'staff',
        action: 'staff.sign-in.oidc.refused',
        subject: staff?.id ?? null,
        details: { ...seen, reason },
        origin: address,
      },
      now,
    );
    return { location: outcomeLocation(outcome), refused: { reason, detail: seen } };
  };

  let staff = await staffBySubject(db, settings.issuer, identity.sub);
  let link = false;
  if (!staff) {
    if (!identity.email) return refuse('unknown', 'the provider sent no e-mail address');
    if (!identity.emailVerified) return refuse('unverified', 'the provider did not say the e-mail address is verified');
    staff = await findStaffByEmail(db, identity.email);
    if (!staff) return refuse('unknown', 'no staff account has this e-mail address');
    // An address given to someone else at the provider does not open an account linked to another subject.
    if ((await subjectOf(db, staff.id, settings.issuer)) !== undefined)
      return refuse('unknown', "the account is linked to another of the provider's subjects", staff);
    link = true;
  }
  if (staff.status !== 'active') return refuse('disabled', 'the staff account is disabled', staff);

  const factors: SecondFactor[] = [];
  if (!multiFactor) {
    if ((await passkeysOf(db, staff.id)).length > 0) factors.push('passkey');
    if (staff.totp_secret_sealed) factors.push('totp');
    if ((await unusedRecoveryCodes(db, staff.id)) > 0) factors.push('recoveryCode');
    if (factors.length === 0)
      return refuse('noSecondFactor', 'the provider reported no second factor and the account has none here', staff);
  }

  // The provider's factor is as fresh as its authentication (auth_time), never later than now.
  const authAt = identity.authTime === undefined ? now : new Date(Math.min(identity.authTime * 1000, now.getTime()));
  const person = staff;
  const started = await db.transaction().execute(async (trx) => {
    // Two first sign-ins at once: the second finds the link taken, and goes on only as the same subject.
    if (link && !(await linkSubject(trx, person.id, settings.issuer, identity.sub, now.toISOString())))
      if ((await subjectOf(trx, person.id, settings.issuer)) !== identity.sub) return undefined;
    await recordAudit(
      trx,
      {
        clientId: null,
        actor: person.email,
        actorKind: 'staff',
        action: 'staff.sign-in.oidc',
        subject: person.id,
        details: { ...seen, secondFactor: multiFactor ? 'provider' : 'required', linked: link },
        origin: address,
      },
      now,
    );
    if (!multiFactor) return startHalfSession(trx, person.id, address, now);
    await updateStaff(trx, person.id, { last_sign_in_at: now.toISOString() });
    return startFullSession(trx, person.id, address, now, authAt);
  });
  if (!started) return refuse('unknown', "the account was linked to another of the provider's subjects meanwhile", staff);
  return multiFactor
    ? { location: CONSOLE_HOME, started, full: true }
    : { location: outcomeLocation('secondFactor', factors), started, full: false };
}
