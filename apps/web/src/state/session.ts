import type { ActivateRequest, Locale, UserData } from '@rewards/contract';
import { RequestError } from '../api/client.ts';
import * as endpoints from '../api/endpoints.ts';
import type { AppServices } from './StoreContext.tsx';
import { clearSessionState, writeAnonymousAck, writeBundleState, writeUserState } from './storage.ts';

// The session's operations (spec section 4). They update the store and session storage;
// navigation is left to the caller, which knows the router.

/** Error code of a login by a participant who has not activated yet (spec section 4). */
const PRE_ACTIVATION = 20013;

/** The bundle of a locale, from the cache or the server. Throws what the fetch threw. */
export async function ensureBundle({ store, api }: AppServices, code: string): Promise<void> {
  if (store.getState().bundles[code]) return;
  const reply = await endpoints.getBundle(api, code);
  const bundle = reply.bundleList[code] ?? Object.values(reply.bundleList)[0];
  if (!bundle) throw new RequestError({ status: 200, errorCode: null, responseMessage: 'error.generic', message: 'Empty bundle list' });
  store.setState((s) => ({ bundles: { ...s.bundles, [code]: bundle.properties } }));
}

function applyLocale({ store }: AppServices, locale: Locale): void {
  const properties = store.getState().bundles[locale.code];
  store.setState({ locale: { code: locale.code, dir: locale.dir } });
  if (properties) writeBundleState({ locale, properties });
}

function setUser({ store }: AppServices, user: UserData): void {
  store.setState({ user });
  writeUserState(user);
}

/**
 * Changes fields of the signed-in user (a new balance from a redeem, a fresh GET user) in the
 * store and in session storage alike. Does nothing when nobody is signed in.
 */
export function updateUser(services: AppServices, patch: Partial<UserData>): void {
  const current = services.store.getState().user;
  if (current) setUser(services, { ...current, ...patch });
}

/**
 * What login and activation share once the server answered user data and a new session: keep the
 * visitor's chosen language, fetch the user's bundle when the locale differs, store the user.
 */
async function startSession(services: AppServices, answered: UserData): Promise<void> {
  const { store, api } = services;
  let user = answered;
  const { client, locale: chosen } = store.getState();

  // A visitor who picked a language before signing in keeps it (spec section 4, Login). An
  // administrator acting as the participant keeps it on this screen only: the participant's
  // language is theirs (the server refuses the change, docs/decisions/025).
  if (user.adminAsUser && client && chosen.code !== user.locale.code) {
    user = { ...user, locale: { code: chosen.code, dir: chosen.dir } };
  } else if (client && chosen.code !== client.locale.code && chosen.code !== user.locale.code) {
    try {
      user = await endpoints.setUserLocale(api, chosen.code, user.sessionId);
    } catch (error) {
      store.addError('setLocale', error);
    }
  }

  let locale = user.locale;
  try {
    await ensureBundle(services, locale.code);
  } catch (error) {
    // Without the user's bundle the current one stays: better than a screen of missing keys.
    store.addError('bundle', error);
    locale = store.getState().locale;
  }
  setUser(services, user);
  applyLocale(services, locale);
}

export async function login(services: AppServices, username: string, password: string): Promise<boolean> {
  const { store, api } = services;
  if (store.getState().busy.login) return false;
  store.dismissErrors('login', 'setLocale', 'bundle');
  store.setState({ preActivationWarning: false, sessionTimedOut: false });
  store.setBusy('login', true);
  try {
    await startSession(services, await endpoints.login(api, { username, password }));
    return true;
  } catch (error) {
    if (error instanceof RequestError && error.errorCode === PRE_ACTIVATION) {
      store.setState({ preActivationWarning: true });
    } else {
      store.addError('login', error);
    }
    return false;
  } finally {
    store.setBusy('login', false);
  }
}

/**
 * The other ways in answer user data with a new session exactly like login, and the participant is
 * signed in the same way (spec section 4): activation (issue 7), launch-as (the link's token
 * becomes a session marked adminAsUser, issue 9) and single sign-on (GET user answered for the
 * one-time id of /sso-authenticated). Each caller makes its own call and shows its own refusal.
 */
export async function signInWith(services: AppServices, answered: UserData): Promise<void> {
  services.store.setState({ preActivationWarning: false, sessionTimedOut: false });
  await startSession(services, answered);
}

/** Activation's write: the answered session signs the participant in. Throws the server's refusal. */
export async function activate(services: AppServices, request: ActivateRequest): Promise<void> {
  await signInWith(services, await endpoints.activate(services.api, request));
}

/** Launch-as's write. Throws the server's refusal (expired, used, unknown) for the page to show. */
export async function launchAs(services: AppServices, token: string): Promise<void> {
  await signInWith(services, await endpoints.launchAs(services.api, token));
}

/**
 * Spec section 4, Logout. Returns where to go: /login, or /sso-logout when the client's SSO
 * logout type is not plain login.
 */
export async function logout(services: AppServices): Promise<string> {
  const { store, api } = services;
  store.setBusy('logout', true);
  try {
    await endpoints.logout(api);
  } catch {
    // The server session may already be gone; signing out locally is what the user asked for.
  }
  clearSessionState();
  const { client } = store.getState();
  const locale = client?.locale ?? store.getState().locale;
  store.setState((s) => ({
    user: null,
    locale: { code: locale.code, dir: locale.dir },
    preActivationWarning: false,
    sessionTimedOut: false,
    errors: [],
    successes: [],
    busy: { ...s.busy, logout: false },
  }));
  return client && client.ssoConfig.ssoLogoutType !== 'login' ? '/sso-logout' : '/login';
}

/** The language selector: fetch the bundle, switch, and save it on the account when signed in. */
export async function switchLocale(services: AppServices, locale: Locale): Promise<void> {
  const { store, api } = services;
  if (store.getState().busy.locale) return;
  store.dismissErrors('bundle', 'setLocale');
  store.setBusy('locale', true);
  try {
    try {
      await ensureBundle(services, locale.code);
    } catch (error) {
      store.addError('bundle', error);
      return;
    }
    const user = store.getState().user;
    // An administrator acting as the participant changes the language of this screen only.
    if (user && !user.adminAsUser) {
      try {
        setUser(services, await endpoints.setUserLocale(api, locale.code));
      } catch (error) {
        if (error instanceof RequestError && error.sessionTimeout) return;
        store.addError('setLocale', error);
        return;
      }
    }
    applyLocale(services, locale);
  } finally {
    store.setBusy('locale', false);
  }
}

/** Cookie notice close: the server records it for a user, localStorage for an anonymous visitor. */
export async function acknowledgePrivacy(services: AppServices): Promise<void> {
  const { store, api } = services;
  const { user, client } = store.getState();
  if (!user) {
    const version = client?.privacyNoticeVersion ?? 0;
    writeAnonymousAck(version);
    store.setState({ anonymousPrivacyAck: version });
    return;
  }
  store.setBusy('privacy', true);
  try {
    const reply = await endpoints.acknowledgePrivacyNotice(api);
    const current = store.getState().user;
    if (current) setUser(services, { ...current, privacyNotice: reply.privacyNotice });
  } catch (error) {
    if (!(error instanceof RequestError && error.sessionTimeout)) store.addError('privacyNotice', error);
  } finally {
    store.setBusy('privacy', false);
  }
}
