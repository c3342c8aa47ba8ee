import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import {
  CONSOLE_API_BASE,
  STAFF_OIDC_FACTORS_PARAM,
  STAFF_OIDC_OUTCOME_PARAM,
  STAFF_STEP_UP_PARAM,
  consolePaths,
  type SecondFactor,
  type StaffOidcOutcome,
  type StaffSignInMethods,
  type StaffStepUpOutcome,
} from '@rewards/contract/console';
import type { StaffOidcConfig } from '../../config.ts';
import { recordAudit } from '../audit/service.ts';
import { isUnreachable, providerConfig } from '../sso/provider.ts';
import { startFullSession, startHalfSession, STAFF_SESSION, type StartedSession } from './sessions.ts';
import type { StaffContext } from './sign-in.ts';
import type { Staff } from './tables.ts';
import { deleteExpiredOidcLogins, insertOidcLogin, linkSubject, staffBySubject, subjectOf, takeOidcLogin } from './oidc-store.ts';
import { findStaffByEmail, findStaffSession, passkeysOf, renewSecondFactor, unusedRecoveryCodes, updateStaff } from './store.ts';
import type { StaffOidcLogin } from './tables.ts';

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

/** A placeholder origin to resolve a path against: what stays on it is a path of the console's own origin. */
const PATH_BASE = 'http://console.invalid';

/**
 * The console page to come back to after a step-up: a path under /console on the console's own
 * origin (normalised, so `..` or an encoded one cannot climb out), else the console's home.
 */
export function consoleReturnPath(value: string | undefined): string {
  if (value === undefined || value.length > 500) return CONSOLE_HOME;
  let url: URL;
  try {
    url = new URL(value, PATH_BASE);
  } catch {
    return CONSOLE_HOME;
  }
  if (!value.startsWith('/') || url.origin !== PATH_BASE) return CONSOLE_HOME;
  if (url.pathname !== '/console' && !url.pathname.startsWith('/console/')) return CONSOLE_HOME;
  url.searchParams.delete(STAFF_STEP_UP_PARAM);
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.length <= 500 ? path : CONSOLE_HOME;
}

/** The page a step-up came from, with `?stepUp=<outcome>` that the console explains. */
export function stepUpLocation(returnTo: string | null, outcome: StaffStepUpOutcome): string {
  const url = new URL(consoleReturnPath(returnTo ?? undefined), PATH_BASE);
  url.searchParams.set(STAFF_STEP_UP_PARAM, outcome);
  return `${url.pathname}${url.search}${url.hash}`;
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
  /** The return of a step-up (a live session's factor renewed or not), not a sign-in. */
  stepUp?: true;
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

/** A step-up through the provider: the console session whose factor it renews, and the page to come back to. */
export interface OidcStepUp {
  sessionHash: string;
  returnTo: string;
}

/**
 * GET sign-in/oidc: records the sign-in under way and sends the browser to the provider. `fresh`
 * asks the provider to authenticate again (prompt=login, max_age=0). With `stepUp` (a full
 * session asked for it), the answer renews that session's second factor instead of starting one;
 * without, a fresh sign-in starts a new session.
 */
export async function beginOidcSignIn(
  ctx: StaffContext,
  settings: StaffOidcConfig | undefined,
  fresh: boolean,
  now = new Date(),
  stepUp?: OidcStepUp,
): Promise<BeginOidc> {
  if (!settings) {
    const reason = { reason: 'no OpenID provider is configured for staff' };
    return { location: stepUp ? stepUpLocation(stepUp.returnTo, 'error') : outcomeLocation('off'), refused: reason };
  }
  let config: oidc.Configuration;
  try {
    config = await providerOf(settings);
  } catch (error) {
    return {
      location: stepUp ? stepUpLocation(stepUp.returnTo, 'gateway') : outcomeLocation('gateway'),
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
    step_up_session: stepUp?.sessionHash ?? null,
    return_to: stepUp ? consoleReturnPath(stepUp.returnTo) : null,
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
  const outcome = await completeTakenLogin(ctx, settings, login, input, address, now);
  return login.step_up_session === null ? outcome : { ...outcome, stepUp: true };
}

/** The callback once its state has been taken: a sign-in, or a step-up of a live session. */
async function completeTakenLogin(
  ctx: StaffContext,
  settings: StaffOidcConfig | undefined,
  login: StaffOidcLogin,
  input: OidcCallbackInput,
  address: string,
  now: Date,
): Promise<OidcOutcome> {
  // A step-up goes back to the page it came from, whatever the outcome; a sign-in to the sign-in page.
  const back = (signIn: StaffOidcOutcome, stepUp: StaffStepUpOutcome) =>
    login.step_up_session === null ? outcomeLocation(signIn) : stepUpLocation(login.return_to, stepUp);
  if (login.expires_at <= now.toISOString())
    return { location: back('error', 'error'), refused: { reason: 'the sign-in took too long (state expired)' } };
  // Not `back`: a browser that did not start this has no business learning which page the step-up was for.
  if (!input.browserBinding || sha256(input.browserBinding) !== login.browser_hash)
    return {
      location: outcomeLocation('error'),
      refused: { reason: 'the callback came to another browser than the one that started the sign-in' },
    };
  if (input.error)
    return {
      location: back('refused', 'refused'),
      refused: { reason: 'the provider refused the sign-in', detail: { oauthError: input.error.slice(0, 100) } },
    };
  if (!settings) return { location: back('off', 'error'), refused: { reason: 'the OpenID provider was turned off during the sign-in' } };

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
      return { location: back('gateway', 'gateway'), refused: { reason: 'the provider cannot be reached', detail: describe(error) } };
    return { location: back('error', 'error'), refused: { reason: "the provider's answer failed the checks", detail: describe(error) } };
  }
  return login.step_up_session === null
    ? admit(ctx, settings, identity, address, now)
    : stepUpThrough(ctx, settings, login, login.step_up_session, identity, address, now);
}

/** The account the provider's identity is, by the linked subject, else by the verified e-mail (then to be linked); or why none. */
type Resolved = { staff: Staff; link: boolean } | { refused: StaffOidcOutcome; reason: string; staff?: Staff };

async function resolveStaff(ctx: StaffContext, settings: StaffOidcConfig, identity: Identity): Promise<Resolved> {
  const linked = await staffBySubject(ctx.db, settings.issuer, identity.sub);
  if (linked) return { staff: linked, link: false };
  if (!identity.email) return { refused: 'unknown', reason: 'the provider sent no e-mail address' };
  if (!identity.emailVerified) return { refused: 'unverified', reason: 'the provider did not say the e-mail address is verified' };
  const staff = await findStaffByEmail(ctx.db, identity.email);
  if (!staff) return { refused: 'unknown', reason: 'no staff account has this e-mail address' };
  // An address given to someone else at the provider does not open an account linked to another subject.
  if ((await subjectOf(ctx.db, staff.id, settings.issuer)) !== undefined)
    return { refused: 'unknown', reason: "the account is linked to another of the provider's subjects", staff };
  return { staff, link: true };
}

/** The provider's factor is as fresh as its authentication (auth_time), never later than now. */
const authenticatedAt = (identity: Identity, now: Date) =>
  identity.authTime === undefined ? now : new Date(Math.min(identity.authTime * 1000, now.getTime()));

/**
 * The callback of a step-up: the session that asked must still be live and full, and the
 * provider's identity must be that session's person (the same rule as the sign-in: the linked
 * subject, or the verified address linked now); someone else's sign-in at the provider changes
 * nothing. With the provider's second factor, the session's factor is renewed to the provider's
 * auth_time (the session keeps its id, as after our step-up); without, nothing changes and the
 * console says our code or passkey remains the way. Audited either way.
 */
async function stepUpThrough(
  ctx: StaffContext,
  settings: StaffOidcConfig,
  login: StaffOidcLogin,
  sessionHash: string,
  identity: Identity,
  address: string,
  now: Date,
): Promise<OidcOutcome> {
  const { db } = ctx;
  const seen = { method: 'oidc', sub: identity.sub, email: identity.email ?? null, amr: identity.amr, acr: identity.acr ?? null };
  const found = await findStaffSession(db, sessionHash);
  const nowMs = now.getTime();
  const live =
    found &&
    found.session.second_factor_at !== null &&
    Date.parse(found.session.idle_expires_at) > nowMs &&
    Date.parse(found.session.absolute_expires_at) > nowMs &&
    found.staff.status === 'active';
  if (!found || !live)
    return { location: stepUpLocation(login.return_to, 'ended'), refused: { reason: 'the session that asked ended meanwhile' } };
  const person = found.staff;
  const audit = (trx: typeof db, action: string, details: Record<string, unknown>) =>
    recordAudit(
      trx,
      { clientId: null, actor: person.email, actorKind: 'staff', action, subject: person.id, details, origin: address },
      now,
    );
  const refuse = async (outcome: StaffStepUpOutcome, reason: string): Promise<OidcOutcome> => {
    await audit(db, 'staff.step-up.oidc.refused', { ...seen, reason });
    return { location: stepUpLocation(login.return_to, outcome), refused: { reason, detail: seen } };
  };

  const resolved = await resolveStaff(ctx, settings, identity);
  if ('refused' in resolved || resolved.staff.id !== person.id)
    return refuse(
      'otherPerson',
      `the provider signed in someone else than the session's person (${'refused' in resolved ? resolved.reason : 'another staff account'})`,
    );
  if (!providerMultiFactor(identity, settings.mfaAcr)) return refuse('noSecondFactor', 'the provider reported no second factor');

  const renewed = await db.transaction().execute(async (trx) => {
    // The first provider sign-in of someone who signed in with the password: linked as a sign-in would.
    if (resolved.link && !(await linkSubject(trx, person.id, settings.issuer, identity.sub, now.toISOString())))
      if ((await subjectOf(trx, person.id, settings.issuer)) !== identity.sub) return 'otherPerson' as const;
    if (!(await renewSecondFactor(trx, sessionHash, authenticatedAt(identity, now).toISOString()))) return 'ended' as const;
    await audit(trx, 'staff.step-up.oidc', { ...seen, secondFactor: 'provider', linked: resolved.link });
    return 'passed' as const;
  });
  if (renewed === 'otherPerson') return refuse('otherPerson', "the account was linked to another of the provider's subjects meanwhile");
  if (renewed === 'ended')
    return { location: stepUpLocation(login.return_to, 'ended'), refused: { reason: 'the session that asked ended meanwhile' } };
  return { location: stepUpLocation(login.return_to, 'passed') };
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

  const resolved = await resolveStaff(ctx, settings, identity);
  if ('refused' in resolved) return refuse(resolved.refused, resolved.reason, resolved.staff);
  const { staff, link } = resolved;
  if (staff.status !== 'active') return refuse('disabled', 'the staff account is disabled', staff);

  const factors: SecondFactor[] = [];
  if (!multiFactor) {
    if ((await passkeysOf(db, staff.id)).length > 0) factors.push('passkey');
    if (staff.totp_secret_sealed) factors.push('totp');
    if ((await unusedRecoveryCodes(db, staff.id)) > 0) factors.push('recoveryCode');
    if (factors.length === 0)
      return refuse('noSecondFactor', 'the provider reported no second factor and the account has none here', staff);
  }

  const authAt = authenticatedAt(identity, now);
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
