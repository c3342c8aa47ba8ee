import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { API_BASE, SSO_PRE_ACTIVATION_CODE, SSO_SESSION_PARAM, ssoPaths } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../sessions/tables.ts';
import { findParticipantByUsername } from '../participants/service.ts';
import { startSession, type SessionPolicy } from '../sessions/service.ts';
import { hashSessionId } from '../sessions/session-id.ts';
import { findClient } from '../clients/service.ts';
import { isUnreachable, providerConfig } from './provider.ts';
import { openSecret, sealSecret, secretKey } from './secret-box.ts';
import { loadSsoSettings, ssoSignInOffered, type SsoSettings } from './settings.ts';
import {
  deleteExpiredSsoRows,
  findSessionToken,
  insertHandoff,
  insertSessionToken,
  insertSignout,
  insertSsoLogin,
  takeHandoff,
  takeSignout,
  takeSsoLogin,
} from './store.ts';

/** A sign-in must come back from the provider within this. */
const LOGIN_TTL_MS = 10 * 60_000;
/** The id in /sso-authenticated?JSESSIONID=… travels in a URL: good once, for at most a minute. */
export const HANDOFF_TTL_MS = 60_000;
/** From the portal's sign-out to the browser's arrival at sso/logout: one redirect, so two minutes is ample. */
export const SIGNOUT_TTL_MS = 2 * 60_000;
/**
 * An ID token longer than this is not kept (sign-out then goes without the hint). Real ones are
 * 1–3 kB; the bound keeps one session's row small whatever a provider puts in its tokens.
 */
export const MAX_KEPT_ID_TOKEN = 16_384;

/** Where the browser goes when a sign-in fails (spec sections 2, 4 and 8; decision 024). */
export const failureRoutes = {
  /** No participant of this client for the provider's user, or one who may not sign in. */
  invalid: '/sso-authenticated?invalid',
  /** A participant who has not activated yet. */
  preActivation: `/sso-authenticated?code=${SSO_PRE_ACTIVATION_CODE}`,
  /** The answer could not be trusted: unknown, used or expired state, wrong nonce, refused code. */
  error: '/sso-authenticated?error',
  /** The provider could not be reached. */
  gateway: '/ssoGatewayLogonFailure',
  /** The provider said no (the user cancelled, access denied, …). */
  providerRefused: '/ssoLogonFailure',
  /** This site has no single sign-on (or it was turned off). */
  notConfigured: '/ssoLogonFailure',
  /** The provider's user data could not be read (no usable claim, userinfo failed), or the portal failed. */
  profile: '/ssoFailure',
} as const;

/** Where to send the browser, and for the operator's log why nobody was signed in. */
export interface SsoOutcome {
  location: string;
  refused?: { reason: string; detail?: Record<string, unknown> };
}

export interface SsoContext {
  db: Db;
  dataDir: string;
  sessionPolicy: SessionPolicy;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A short, safe description of a library error for the log: its code and first line, nothing the provider sent. */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: 'unknown' };
  const code = (error as { code?: unknown }).code;
  const oauthError = (error as { error?: unknown }).error;
  // openid-client wraps oauth4webapi's error, whose message names the failed check (e.g. the
  // "nonce" claim) without any value.
  const cause = error.cause instanceof Error ? error.cause.message.split('\n')[0]?.slice(0, 200) : undefined;
  return {
    ...(typeof code === 'string' ? { errorCode: code } : {}),
    ...(cause ? { cause } : {}),
    ...(typeof oauthError === 'string' ? { oauthError: oauthError.slice(0, 100) } : {}),
    message: error.message.split('\n')[0]?.slice(0, 200),
  };
}

async function settingsFor(ctx: SsoContext, clientId: string): Promise<SsoSettings | undefined> {
  return loadSsoSettings(ctx.db, ctx.dataDir, clientId);
}

export interface BeginLogin extends SsoOutcome {
  /** The random value the browser must bring back to the callback (its cookie). */
  browserBinding?: string;
}

/** GET sso/login: records a sign-in under way and sends the browser to the provider. */
export async function beginLogin(ctx: SsoContext, clientId: string, siteOrigin: string, now = new Date()): Promise<BeginLogin> {
  const settings = await settingsFor(ctx, clientId);
  if (!settings?.provider || !ssoSignInOffered(settings)) {
    return { location: failureRoutes.notConfigured, refused: { reason: 'single sign-on is not configured for this client' } };
  }
  const { provider } = settings;
  let config: oidc.Configuration;
  try {
    config = await providerConfig(clientId, {
      issuer: provider.issuer,
      clientId: provider.oidcClientId,
      clientSecret: provider.clientSecret,
    });
  } catch (error) {
    return {
      location: failureRoutes.gateway,
      refused: { reason: 'the provider cannot be discovered', detail: { issuer: provider.issuer, ...describe(error) } },
    };
  }
  // Housekeeping of abandoned sign-ins, cheap and bounded by the index on expires_at.
  await deleteExpiredSsoRows(ctx.db, now.toISOString());

  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browserBinding = randomBytes(32).toString('base64url');
  const redirectUri = `${siteOrigin}${API_BASE}${ssoPaths.callback}`;
  await insertSsoLogin(ctx.db, {
    state,
    client_id: clientId,
    nonce,
    code_verifier: codeVerifier,
    browser_hash: sha256(browserBinding),
    redirect_uri: redirectUri,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + LOGIN_TTL_MS).toISOString(),
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { location: url.href, browserBinding };
}

export interface CallbackInput {
  /** The callback's query string, without '?', exactly as the provider sent it. */
  search: string;
  state: string | undefined;
  error: string | undefined;
  /** The cookie set by beginLogin, if the browser brought it. */
  browserBinding: string | undefined;
}

/**
 * GET sso/callback: checks state (single use, this browser's, not expired), the provider's answer,
 * PKCE and nonce through openid-client, matches the participant by the configured claim within
 * this client, and hands a one-minute, single-use id to /sso-authenticated.
 */
export async function completeLogin(ctx: SsoContext, clientId: string, input: CallbackInput, now = new Date()): Promise<SsoOutcome> {
  if (!input.state) return { location: failureRoutes.error, refused: { reason: 'the callback carries no state' } };
  const login = await takeSsoLogin(ctx.db, clientId, input.state);
  if (!login) return { location: failureRoutes.error, refused: { reason: 'unknown or already used state (replayed or forged callback)' } };
  if (login.expires_at <= now.toISOString())
    return { location: failureRoutes.error, refused: { reason: 'the sign-in took too long (state expired)' } };
  if (!input.browserBinding || sha256(input.browserBinding) !== login.browser_hash) {
    return {
      location: failureRoutes.error,
      refused: { reason: 'the callback came to another browser than the one that started the sign-in' },
    };
  }
  if (input.error) {
    return {
      location: failureRoutes.providerRefused,
      refused: { reason: 'the provider refused the sign-in', detail: { oauthError: input.error.slice(0, 100) } },
    };
  }

  const settings = await settingsFor(ctx, clientId);
  const provider = settings?.provider;
  if (!settings || !provider || !ssoSignInOffered(settings)) {
    return { location: failureRoutes.notConfigured, refused: { reason: 'single sign-on was turned off during the sign-in' } };
  }
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  let config: oidc.Configuration;
  try {
    config = await providerConfig(clientId, {
      issuer: provider.issuer,
      clientId: provider.oidcClientId,
      clientSecret: provider.clientSecret,
    });
    const currentUrl = new URL(login.redirect_uri);
    currentUrl.search = input.search;
    tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: login.code_verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    if (isUnreachable(error))
      return { location: failureRoutes.gateway, refused: { reason: 'the provider cannot be reached', detail: describe(error) } };
    return { location: failureRoutes.error, refused: { reason: "the provider's answer failed the checks", detail: describe(error) } };
  }

  const claims = tokens.claims();
  let username = claims?.[provider.claim];
  if (typeof username !== 'string' && claims) {
    // Many providers put profile claims in userinfo only, not in the ID token.
    try {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      username = info[provider.claim];
    } catch (error) {
      if (isUnreachable(error))
        return {
          location: failureRoutes.gateway,
          refused: { reason: "the provider's userinfo cannot be reached", detail: describe(error) },
        };
      return { location: failureRoutes.profile, refused: { reason: "the provider's userinfo failed", detail: describe(error) } };
    }
  }
  if (typeof username !== 'string' || username.trim() === '' || username.length > 100) {
    return {
      location: failureRoutes.profile,
      refused: { reason: `the provider sent no usable "${provider.claim}" claim`, detail: { sub: claims?.sub } },
    };
  }
  const participant = await findParticipantByUsername(ctx.db, clientId, username.trim());
  if (!participant)
    return {
      location: failureRoutes.invalid,
      refused: { reason: 'no participant of this client has that username', detail: { username } },
    };
  if (participant.status === 'pending')
    return {
      location: failureRoutes.preActivation,
      refused: { reason: 'the participant has not activated the account', detail: { username } },
    };
  if (participant.status === 'inactive' && (participant.balance ?? 0) <= 0) {
    return { location: failureRoutes.invalid, refused: { reason: 'the participant is inactive', detail: { username } } };
  }

  // The ID token, sealed at once: kept with the session for sign-out's id_token_hint (decision 038).
  const idToken = tokens.id_token;
  const idTokenSealed =
    typeof idToken === 'string' && idToken.length <= MAX_KEPT_ID_TOKEN ? sealSecret(await secretKey(ctx.dataDir), clientId, idToken) : null;
  const handoffId = randomBytes(33).toString('base64url');
  await insertHandoff(ctx.db, {
    id_hash: hashSessionId(handoffId),
    client_id: clientId,
    participant_id: participant.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + HANDOFF_TTL_MS).toISOString(),
    id_token_sealed: idTokenSealed,
  });
  return { location: `/sso-authenticated?${SSO_SESSION_PARAM}=${handoffId}` };
}

/** The hand-off id's shape (44 characters): a session id has 43, so GET user tells them apart without a query. */
export const HANDOFF_ID_PATTERN = /^[A-Za-z0-9_-]{44}$/;

/**
 * The first GET user with a hand-off id: the id is spent, and a fresh session starts for the same
 * participant. Undefined when the id is unknown, used, expired or of another client.
 */
export async function redeemHandoff(
  db: Db,
  policy: SessionPolicy,
  clientId: string,
  handoffId: string,
  now = new Date(),
): Promise<{ sessionId: string; session: Session } | undefined> {
  const handoff = await takeHandoff(db, clientId, hashSessionId(handoffId));
  if (!handoff || handoff.expires_at <= now.toISOString()) return undefined;
  const sealed = handoff.id_token_sealed;
  if (!sealed) return startSession(db, policy, clientId, handoff.participant_id, false, now);
  // The session and its ID token together: the token row exists only while the session does.
  return db.transaction().execute(async (trx) => {
    const started = await startSession(trx, policy, clientId, handoff.participant_id, false, now);
    await insertSessionToken(trx, {
      session_hash: started.session.id_hash,
      client_id: clientId,
      id_token_sealed: sealed,
      expires_at: started.session.absolute_expires_at,
    });
    return started;
  });
}

/**
 * The portal's sign-out (GET logout), before the session ends: when the session was started by
 * single sign-on and the client signs out at the provider, its ID token is kept for two minutes
 * under a random value that the browser gets as an HttpOnly cookie for sso/logout (the next
 * stop, a navigation that carries no session). Resolves with that value, or undefined.
 */
export async function keepSignOutHint(
  db: Db,
  clientId: string,
  sessionId: string | undefined,
  now = new Date(),
): Promise<string | undefined> {
  if (!sessionId) return undefined;
  const client = await findClient(db, clientId);
  if (!client || client.sso_logout_type === 'login') return undefined;
  const token = await findSessionToken(db, clientId, hashSessionId(sessionId), now.toISOString());
  if (!token) return undefined;
  const hint = randomBytes(32).toString('base64url');
  await insertSignout(db, {
    hint_hash: sha256(hint),
    client_id: clientId,
    id_token_sealed: token.id_token_sealed,
    expires_at: new Date(now.getTime() + SIGNOUT_TTL_MS).toISOString(),
  });
  return hint;
}

/** The ID token a sign-out cookie names, once; undefined when unknown, used, expired or unreadable. */
async function idTokenHint(ctx: SsoContext, clientId: string, hint: string | undefined, now: Date): Promise<string | undefined> {
  if (!hint || hint.length > 100) return undefined;
  try {
    await deleteExpiredSsoRows(ctx.db, now.toISOString());
    const row = await takeSignout(ctx.db, clientId, sha256(hint));
    if (!row) return undefined;
    return openSecret(await secretKey(ctx.dataDir), clientId, row.id_token_sealed);
  } catch {
    // Sign-out still works without the hint (the provider may ask for a confirmation).
    return undefined;
  }
}

/**
 * GET sso/logout: the provider's end-session endpoint (RP-initiated logout, with client_id,
 * post_logout_redirect_uri = clientSite.url and, when the portal's sign-out kept it, the session's
 * ID token as id_token_hint), or straight to clientSite.url when the provider has
 * none or cannot be reached, or to the portal's /login when the client has no site.
 */
export async function logoutLocation(ctx: SsoContext, clientId: string, signOutHint?: string, now = new Date()): Promise<SsoOutcome> {
  const idToken = await idTokenHint(ctx, clientId, signOutHint, now);
  const settings = await settingsFor(ctx, clientId);
  const site = settings?.site.url || '/login';
  const provider = settings?.provider;
  if (!settings || settings.ssoLogoutType === 'login' || !provider) return { location: site };
  try {
    const config = await providerConfig(clientId, {
      issuer: provider.issuer,
      clientId: provider.oidcClientId,
      clientSecret: provider.clientSecret,
    });
    if (!config.serverMetadata().end_session_endpoint) return { location: site };
    const params: Record<string, string> = { client_id: provider.oidcClientId };
    // RP-Initiated Logout 1.0 recommends it; providers use it to skip their confirmation and to
    // trust post_logout_redirect_uri. Never logged (follow() logs reasons only).
    if (idToken) params.id_token_hint = idToken;
    if (settings.site.url) params.post_logout_redirect_uri = settings.site.url;
    return { location: oidc.buildEndSessionUrl(config, params).href };
  } catch (error) {
    return { location: site, refused: { reason: 'the provider cannot be reached for sign-out', detail: describe(error) } };
  }
}
