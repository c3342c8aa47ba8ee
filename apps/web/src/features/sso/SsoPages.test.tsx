import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { RequestError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import { makeClient, makeUser } from '../../test/fixtures.ts';
import LoginPage from '../auth/LoginPage.tsx';
import SsoAuthenticatedPage, { readArrival } from './SsoAuthenticatedPage.tsx';
import SsoLogoutPage from './SsoLogoutPage.tsx';

const ssoClient = (ssoType: 'login_and_sso' | 'sso_only', signIn = true) =>
  makeClient({
    ssoConfig: {
      clientSite: { name: 'Acme Intranet', url: 'https://intranet.acme.example/' },
      ssoType,
      ssoLogoutType: 'sso',
      signIn,
      loginForm: ssoType !== 'sso_only',
    },
  });

/** The page reads the real address bar, as it does in a browser. */
function arriveAt(search: string) {
  window.history.replaceState(null, '', `/sso-authenticated${search}`);
}

afterEach(() => {
  window.history.replaceState(null, '', '/');
  sessionStorage.clear();
});

describe('single sign-on on the sign-in page', () => {
  it('offers "Sign in with" the client site beside the form', () => {
    renderWithApp(<LoginPage />, { path: '/login', client: ssoClient('login_and_sso') });
    expect(screen.getByRole('link', { name: 'Sign in with Acme Intranet' })).toHaveAttribute('href', '/api/v1.0/sso/login');
    expect(screen.getByLabelText('User ID')).toBeInTheDocument();
  });

  it('shows only the company sign-in for sso_only', () => {
    renderWithApp(<LoginPage />, { path: '/login', client: ssoClient('sso_only') });
    expect(screen.getByRole('link', { name: 'Sign in with Acme Intranet' })).toBeInTheDocument();
    expect(screen.queryByLabelText('User ID')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Activate your account' })).not.toBeInTheDocument();
  });

  it('offers nothing new where single sign-on is not configured', () => {
    renderWithApp(<LoginPage />, { path: '/login' });
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
  });
});

describe('the SSO return page', () => {
  it("reads the spec's query parameters", () => {
    expect(readArrival('?JSESSIONID=abc')).toEqual({ kind: 'session', id: 'abc' });
    expect(readArrival('?invalid')).toMatchObject({ kind: 'failed', key: 'sso.error.invalidCredentials' });
    expect(readArrival('?code=20013')).toEqual({ kind: 'preActivation' });
    expect(readArrival('?error')).toMatchObject({ kind: 'failed', key: 'sso.error.login' });
    expect(readArrival('')).toMatchObject({ kind: 'failed', key: 'sso.error.noSessionId' });
  });

  it('takes the id out of the address, swaps it through GET user and signs in with the fresh session', async () => {
    arriveAt('?JSESSIONID=one-time-id');
    const demo = makeUser({ sessionId: 'fresh-session-id', ssoAuthenticated: true });
    const { store, request, getByTestId } = renderWithApp(<SsoAuthenticatedPage />, {
      path: '/sso-authenticated',
      client: ssoClient('login_and_sso'),
      request: () => Promise.resolve(demo) as never,
    });
    expect(window.location.pathname + window.location.search).toBe('/');
    await waitFor(() => expect(getByTestId('location')).toHaveTextContent('/home'));
    expect(request).toHaveBeenCalledTimes(1);
    expect(request).toHaveBeenCalledWith('GET', '/user', { sessionId: 'one-time-id', ignoreSessionTimeout: true });
    expect(store.getState().user?.sessionId).toBe('fresh-session-id');
    expect(JSON.parse(sessionStorage.getItem('userState') ?? '{}').sessionId).toBe('fresh-session-id');
  });

  it('goes back to sign-in with the SSO profile error when the id is spent', async () => {
    arriveAt('?JSESSIONID=spent');
    const { store, getByTestId } = renderWithApp(<SsoAuthenticatedPage />, {
      path: '/sso-authenticated',
      request: () =>
        Promise.reject(new RequestError({ status: 401, errorCode: 10001, responseMessage: 'error.session.expired', message: 'x' })),
    });
    await waitFor(() => expect(getByTestId('location')).toHaveTextContent('/login'));
    expect(store.getState().user).toBeNull();
    expect(store.getState().errors.map((e) => e.responseMessage)).toEqual(['sso.error.userData']);
  });

  it('turns ?invalid into the invalid-credentials message and ?code=20013 into the pre-activation warning', async () => {
    arriveAt('?invalid');
    const first = renderWithApp(<SsoAuthenticatedPage />, { path: '/sso-authenticated' });
    await waitFor(() => expect(first.getByTestId('location')).toHaveTextContent('/login'));
    expect(first.store.getState().errors.map((e) => [e.errorType, e.responseMessage])).toEqual([
      ['ssoInvalidCredentials', 'sso.error.invalidCredentials'],
    ]);
    first.unmount();

    arriveAt('?code=20013');
    const second = renderWithApp(<SsoAuthenticatedPage />, { path: '/sso-authenticated' });
    await waitFor(() => expect(second.getByTestId('location')).toHaveTextContent('/login'));
    expect(second.store.getState().preActivationWarning).toBe(true);
    expect(second.request).not.toHaveBeenCalled();
  });

  it('shows an SSO error on the sign-in page it goes back to', () => {
    renderWithApp(<LoginPage />, {
      path: '/login',
      state: { errors: [{ errorType: 'ssoAuthenticated', errorId: 1, errorCode: null, responseMessage: 'sso.error.login', message: 'x' }] },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Signing in through your company account did not work.');
  });
});

describe('the SSO logout page', () => {
  it("leaves for the server's sso/logout at once, with a way back to the client site", () => {
    const leave = vi.fn();
    renderWithApp(<SsoLogoutPage leave={leave} />, { path: '/sso-logout', client: ssoClient('login_and_sso') });
    expect(leave).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'Back to Acme Intranet' })).toHaveAttribute('href', 'https://intranet.acme.example/');
  });
});
