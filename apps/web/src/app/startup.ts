import type { ClientData, Locale, UserData } from '@rewards/contract';
import { RequestError } from '../api/client.ts';
import * as endpoints from '../api/endpoints.ts';
import type { Properties } from '../i18n/translate.ts';
import type { AppServices } from '../state/StoreContext.tsx';
import {
  SESSION_TIMED_OUT,
  clearSessionState,
  readAnonymousAck,
  readBundleState,
  readUserState,
  writeBundleState,
  writeUserState,
} from '../state/storage.ts';
import { ensureBundle } from '../state/session.ts';

/** Client data the server placed in index.html, which saves the first round trip. */
export function readEmbeddedClientData(doc: Document = document): ClientData | null {
  const text = doc.getElementById('client-data')?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<ClientData> | null;
    return data && data.clientBranding && data.locale && data.bundleList ? (data as ClientData) : null;
  } catch {
    return null;
  }
}

/** The English texts built into the app, for the one screen shown when there is no client data. */
async function fallbackBundle(): Promise<Properties> {
  const module = await import('@rewards/translations/en-US.json');
  return module.default as Properties;
}

interface StartUpOptions {
  /**
   * Downloads the scripts of the first screen for a visitor (`signedIn` false) or a participant.
   * Called at once with a guess from the stored session, so the download runs alongside the
   * calls, and again before loaded with the answer, which start-up then waits for.
   */
  loadFirstScreen?: (signedIn: boolean) => Promise<unknown>;
  /**
   * Lets the browser run between the steps (paint, input), so start-up is a few short tasks
   * rather than one long one on a slow phone (decision 030). None in tests: the steps run on.
   */
  yieldToBrowser?: () => Promise<void>;
  /** Runs work that can wait until the first screen shows (an idle period); at once by default. */
  later?: (task: () => void) => void;
}

/** A new task: what the browser has waiting (a paint, input) runs before the rest. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The start-up sequence of spec section 4: client data, then the session bundle, then the
 * session user, then loaded. A reload with a stored session makes one call, GET user (client
 * data and the default bundle come with the page, the session bundle from session storage).
 */
export async function startUp(services: AppServices, options: StartUpOptions = {}): Promise<void> {
  const { store, api } = services;
  const loadFirstScreen = (signedIn: boolean) =>
    options.loadFirstScreen?.(signedIn).catch(() => {
      // A page that cannot load shows its own error screen when it is rendered.
    });
  const breathe = options.yieldToBrowser ?? (() => Promise.resolve());
  void loadFirstScreen(Boolean(readUserState()?.sessionId));
  // The first render (the loading overlay) ends its task before the start-up's own work.
  await breathe();

  // 1. Client data.
  let client: ClientData;
  try {
    client = readEmbeddedClientData() ?? (await endpoints.getClientData(api));
  } catch (error) {
    store.addError('clientData', error);
    let properties: Properties = {};
    try {
      properties = await fallbackBundle();
    } catch {
      // Even the built-in texts failed: the error screen then shows its keys.
    }
    store.setState({ status: 'failed', bundles: { 'en-US': properties }, locale: { code: 'en-US', dir: 'ltr' }, redirect: '/error' });
    return;
  }
  const bundles: Record<string, Properties> = {};
  for (const [code, bundle] of Object.entries(client.bundleList)) bundles[code] = bundle.properties;
  store.setState({ client, bundles, locale: client.locale });
  await breathe();

  // After the reload of the session-timeout path (spec section 4, Session timeout).
  const timedOut = sessionStorage.getItem(SESSION_TIMED_OUT) !== null;
  sessionStorage.removeItem(SESSION_TIMED_OUT);
  if (timedOut) {
    if (client.ssoConfig.ssoLogoutType !== 'login') store.setState({ redirect: '/sso-logout' });
    else store.setState({ sessionTimedOut: true });
  }

  // 2. Session bundle: the one this tab used last, else the stored user's, else the client's.
  const storedUser = readUserState();
  const storedBundle = readBundleState();
  let locale: Locale = client.locale;
  if (storedBundle) {
    store.setState((s) => ({ bundles: { ...s.bundles, [storedBundle.locale.code]: storedBundle.properties } }));
    locale = storedBundle.locale;
  } else if (storedUser && storedUser.locale.code !== client.locale.code) {
    try {
      await ensureBundle(services, storedUser.locale.code);
      locale = storedUser.locale;
    } catch (error) {
      store.addError('bundle', error);
    }
  }

  // 3. Session user.
  let user: UserData | null = null;
  if (storedUser?.sessionId) {
    try {
      user = await endpoints.getUser(api, storedUser.sessionId);
      writeUserState(user);
    } catch (error) {
      // A 401 has started the timeout path and the page is reloading: stay on the overlay.
      if (error instanceof RequestError && error.sessionTimeout) return;
      clearSessionState();
      store.addError('validateSession', error);
    }
  }
  if (user && user.locale.code !== locale.code) {
    try {
      await ensureBundle(services, user.locale.code);
      locale = user.locale;
    } catch (error) {
      store.addError('bundle', error);
    }
  }

  const properties = store.getState().bundles[locale.code];
  if (properties) writeBundleState({ locale, properties });

  // The cookie notice's answer for a visitor is in local storage, whose first read can take a
  // while: a visitor needs it for the first screen, a participant only after signing out.
  const readAck = () => store.setState({ anonymousPrivacyAck: readAnonymousAck() });
  if (user) (options.later ?? ((task: () => void) => task()))(readAck);
  else readAck();

  // 4. Loaded, with the first screen's scripts at hand.
  await loadFirstScreen(user !== null);
  store.setState({ user, locale: { code: locale.code, dir: locale.dir }, status: 'loaded' });
}

/** Spec section 4: a 401 on an existing session clears stored state, marks it and reloads. */
export function sessionTimeout(reload: () => void = () => window.location.reload()): void {
  clearSessionState();
  sessionStorage.setItem(SESSION_TIMED_OUT, 'true');
  reload();
}
