import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client.ts';
import { RequestError } from '../api/client.ts';
import { createStore } from '../state/store.ts';
import { makeClient, makeUser } from '../test/fixtures.ts';
import { nextTask, readEmbeddedClientData, sessionTimeout, startUp } from './startup.ts';
import { ANONYMOUS_PRIVACY_ACK } from '../state/storage.ts';

type Answer = (path: string, sessionId: string | null | undefined) => unknown;

function services(answer: Answer) {
  const store = createStore();
  const request = vi.fn(async (_method: string, path: string, options?: { sessionId?: string | null }) => {
    const value = answer(path, options?.sessionId);
    if (value instanceof Error) throw value;
    return value;
  });
  const api = { request } as unknown as ApiClient;
  return { store, api, request };
}

/** Client data in the page, as the server inlines it into index.html. */
function embedClientData(): HTMLScriptElement {
  const script = document.createElement('script');
  script.id = 'client-data';
  script.type = 'application/json';
  script.textContent = JSON.stringify(makeClient());
  document.body.append(script);
  return script;
}

describe('the start-up sequence (spec section 4)', () => {
  it('loads client data, then is loaded and anonymous without a stored session', async () => {
    const s = services((path) => (path === '/viewConfig/client' ? makeClient() : new Error(path)));
    expect(s.store.getState().status).toBe('loading');
    await startUp(s);
    const state = s.store.getState();
    expect(state.status).toBe('loaded');
    expect(state.user).toBeNull();
    expect(state.locale).toEqual({ code: 'en-US', dir: 'ltr' });
    expect(state.bundles['en-US']?.['login.heading']).toBe('Sign in');
  });

  it('uses client data embedded in the page instead of fetching it', async () => {
    const script = embedClientData();
    try {
      expect(readEmbeddedClientData()?.clientBranding.clientName).toBe('Acme Rewards');
      const s = services((path) => new Error(path));
      await startUp(s);
      expect(s.request).not.toHaveBeenCalled();
      expect(s.store.getState().status).toBe('loaded');
    } finally {
      script.remove();
    }
  });

  it('restores a stored session with GET /user and fetches the user locale bundle', async () => {
    sessionStorage.setItem('userState', JSON.stringify(makeUser({ sessionId: 'stored', locale: { code: 'ar', dir: 'rtl' } })));
    const s = services((path, sessionId) => {
      if (path === '/viewConfig/client') return makeClient();
      if (path === '/viewConfig/bundle/ar')
        return { bundleList: { ar: { locale: 'ar', properties: { 'login.heading': 'تسجيل الدخول' } } } };
      if (path === '/user' && sessionId === 'stored') return makeUser({ sessionId: 'stored', locale: { code: 'ar', dir: 'rtl' } });
      return new Error(path);
    });
    await startUp(s);
    const state = s.store.getState();
    expect(state.user?.sessionId).toBe('stored');
    expect(state.locale).toEqual({ code: 'ar', dir: 'rtl' });
    expect(JSON.parse(sessionStorage.getItem('bundleState') ?? '{}').locale.code).toBe('ar');
  });

  it('reloads a signed-in tab with one call, GET /user, and the first screen ready', async () => {
    // What a reload of /home finds: client data in the page, the bundle and the user in session storage.
    const script = embedClientData();
    sessionStorage.setItem('userState', JSON.stringify(makeUser({ sessionId: 'stored', accountBalance: 100 })));
    sessionStorage.setItem(
      'bundleState',
      JSON.stringify({ locale: { code: 'en-US', dir: 'ltr' }, properties: { 'login.heading': 'Sign in' } }),
    );
    try {
      const s = services((path, sessionId) =>
        path === '/user' && sessionId === 'stored' ? makeUser({ sessionId: 'stored', accountBalance: 120 }) : new Error(path),
      );
      let screenReady = false;
      const loadFirstScreen = vi.fn(async (signedIn: boolean) => {
        await Promise.resolve();
        if (signedIn) screenReady = true;
      });
      await startUp(s, { loadFirstScreen });
      expect(s.request.mock.calls.map(([method, path]) => `${method} ${path}`)).toEqual(['GET /user']);
      expect(s.store.getState()).toMatchObject({ status: 'loaded', user: { accountBalance: 120 } });
      // The guess from the stored session starts the download first; loaded waited for the answer.
      expect(loadFirstScreen.mock.calls).toEqual([[true], [true]]);
      expect(screenReady).toBe(true);
    } finally {
      script.remove();
    }
  });

  it('lets the browser run between its steps, with the same single call and order', async () => {
    const script = embedClientData();
    sessionStorage.setItem('userState', JSON.stringify(makeUser({ sessionId: 'stored' })));
    sessionStorage.setItem(
      'bundleState',
      JSON.stringify({ locale: { code: 'en-US', dir: 'ltr' }, properties: { 'login.heading': 'Sign in' } }),
    );
    try {
      const s = services((path) => (path === '/user' ? makeUser({ sessionId: 'stored', accountBalance: 120 }) : new Error(path)));
      // What each pause finds: nothing yet, then client data but no user, the user still to come.
      const seen: string[] = [];
      const yieldToBrowser = vi.fn(async () => {
        const state = s.store.getState();
        seen.push(`${state.client ? 'client' : 'no client'}, ${s.request.mock.calls.length} calls, ${state.status}`);
        await nextTask();
      });
      await startUp(s, { yieldToBrowser });
      expect(seen).toEqual(['no client, 0 calls, loading', 'client, 0 calls, loading']);
      expect(s.request.mock.calls.map(([method, path]) => `${method} ${path}`)).toEqual(['GET /user']);
      expect(s.store.getState()).toMatchObject({ status: 'loaded', user: { accountBalance: 120 } });
    } finally {
      script.remove();
    }
  });

  it("reads a visitor's cookie-notice answer before loaded, a participant's only later", async () => {
    localStorage.setItem(ANONYMOUS_PRIVACY_ACK, '3');
    try {
      const visitor = services((path) => (path === '/viewConfig/client' ? makeClient() : new Error(path)));
      const laterForVisitor = vi.fn();
      await startUp(visitor, { later: laterForVisitor });
      expect(visitor.store.getState()).toMatchObject({ status: 'loaded', user: null, anonymousPrivacyAck: 3 });
      expect(laterForVisitor).not.toHaveBeenCalled();

      sessionStorage.setItem('userState', JSON.stringify(makeUser({ sessionId: 'stored' })));
      const participant = services((path) =>
        path === '/viewConfig/client' ? makeClient() : path === '/user' ? makeUser({ sessionId: 'stored' }) : new Error(path),
      );
      const waiting: Array<() => void> = [];
      await startUp(participant, { later: (task) => waiting.push(task) });
      expect(participant.store.getState()).toMatchObject({ status: 'loaded', anonymousPrivacyAck: 0 });
      expect(waiting).toHaveLength(1);
      waiting[0]!();
      expect(participant.store.getState().anonymousPrivacyAck).toBe(3);
    } finally {
      localStorage.removeItem(ANONYMOUS_PRIVACY_ACK);
    }
  });

  it('is loaded even when the first screen cannot be downloaded (its error screen shows instead)', async () => {
    const s = services(() => makeClient());
    await startUp(s, { loadFirstScreen: () => Promise.reject(new Error('offline')) });
    expect(s.store.getState().status).toBe('loaded');
  });

  it('stays on the loading overlay when the stored session has timed out (the page reloads)', async () => {
    sessionStorage.setItem('userState', JSON.stringify(makeUser()));
    const s = services((path) =>
      path === '/user'
        ? new RequestError({ status: 401, errorCode: null, responseMessage: 'error.session.expired', message: 'x' }, true)
        : makeClient(),
    );
    await startUp(s);
    expect(s.store.getState().status).toBe('loading');
  });

  it('goes to /error when client data cannot be fetched, with built-in English texts', async () => {
    const s = services(() => new RequestError({ status: 500, errorCode: 10500, responseMessage: 'error.internal', message: 'x' }));
    await startUp(s);
    const state = s.store.getState();
    expect(state.status).toBe('failed');
    expect(state.redirect).toBe('/error');
    expect(state.errors[0]).toMatchObject({ errorType: 'clientData', responseMessage: 'error.internal' });
    expect(state.bundles['en-US']?.['error.page.heading']).toBe('Something went wrong');
  });

  it('after the timeout reload: shows the notice once, or goes to /sso-logout for SSO logout', async () => {
    sessionStorage.setItem('sessionTimedOut', 'true');
    const s = services(() => makeClient());
    await startUp(s);
    expect(s.store.getState().sessionTimedOut).toBe(true);
    expect(sessionStorage.getItem('sessionTimedOut')).toBeNull();

    sessionStorage.setItem('sessionTimedOut', 'true');
    const sso = services(() =>
      makeClient({ ssoConfig: { clientSite: { name: 'A', url: 'https://a.example' }, ssoType: 'login_and_sso', ssoLogoutType: 'sso' } }),
    );
    await startUp(sso);
    expect(sso.store.getState().redirect).toBe('/sso-logout');
    expect(sso.store.getState().sessionTimedOut).toBe(false);
  });
});

describe('the session-timeout path', () => {
  it('clears userState and bundleState, sets sessionTimedOut and reloads', () => {
    sessionStorage.setItem('userState', '{}');
    sessionStorage.setItem('bundleState', '{}');
    const reload = vi.fn();
    sessionTimeout(reload);
    expect(sessionStorage.getItem('userState')).toBeNull();
    expect(sessionStorage.getItem('bundleState')).toBeNull();
    expect(sessionStorage.getItem('sessionTimedOut')).toBe('true');
    expect(reload).toHaveBeenCalledOnce();
  });
});
