import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import { AdminBanner, Header } from './Header.tsx';

describe('the header', () => {
  it('shows the client logo named by the client, and no user bar to a visitor', () => {
    renderWithApp(<Header />);
    expect(screen.getByRole('img', { name: 'Acme Rewards' })).toHaveAttribute('src', '/brand/acme/logo.svg');
    expect(screen.queryByRole('navigation', { name: 'Your account' })).not.toBeInTheDocument();
  });

  it('shows the full name, the points with the plural media label, profile and logout', () => {
    renderWithApp(<Header />, { user: makeUser() });
    const bar = within(screen.getByRole('navigation', { name: 'Your account' }));
    expect(bar.getByText('Dana Demo')).toBeInTheDocument();
    expect(bar.getByRole('link', { name: '12,500 Acme Points' })).toHaveAttribute('href', '/activity-history');
    expect(bar.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(bar.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('uses the singular label for one point', () => {
    renderWithApp(<Header />, { user: makeUser({ accountBalance: 1 }) });
    expect(screen.getByRole('link', { name: '1 Acme Point' })).toBeInTheDocument();
  });

  it('logs out: calls the server, forgets the session and goes to /login', async () => {
    sessionStorage.setItem('userState', '{"sessionId":"session-1"}');
    const { store, request } = renderWithApp(<Header />, {
      user: makeUser(),
      path: '/home',
      request: () => Promise.resolve(undefined) as never,
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(request).toHaveBeenCalledWith('GET', '/logout', expect.anything());
    expect(store.getState().user).toBeNull();
    expect(sessionStorage.getItem('userState')).toBeNull();
  });

  it('marks launched-as mode with a label and a banner', () => {
    renderWithApp(
      <>
        <AdminBanner />
        <Header />
      </>,
      { user: makeUser({ adminAsUser: true }) },
    );
    expect(screen.getByText('Launched as')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Acting as a participant' })).toHaveTextContent('You are acting as Dana Demo.');
  });

  it('switches language: fetches the bundle, saves it on the account and turns the page right-to-left', async () => {
    const arBundle = { 'header.language.label': 'اللغة: {language}', 'header.userNav': 'حسابك' };
    const { store } = renderWithApp(<Header />, {
      user: makeUser(),
      request: ((method: string, path: string) => {
        if (path === '/viewConfig/bundle/ar') return Promise.resolve({ bundleList: { ar: { locale: 'ar', properties: arBundle } } });
        if (path === '/user/locale') return Promise.resolve(makeUser({ locale: { code: 'ar', dir: 'rtl' } }));
        return Promise.reject(new Error(`${method} ${path}`));
      }) as never,
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Language: English' }));
    await user.click(screen.getByRole('button', { name: 'العربية' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(screen.getByRole('navigation', { name: 'حسابك' })).toBeInTheDocument();
    expect(store.getState().user?.locale.code).toBe('ar');
  });

  it('switches the language of the screen only for an administrator acting as the participant (issue 9)', async () => {
    const arBundle = { 'header.language.label': 'اللغة: {language}', 'header.userNav': 'حسابك' };
    const { request, store } = renderWithApp(<Header />, {
      user: makeUser({ adminAsUser: true }),
      request: ((method: string, path: string) => {
        if (path === '/viewConfig/bundle/ar') return Promise.resolve({ bundleList: { ar: { locale: 'ar', properties: arBundle } } });
        return Promise.reject(new Error(`${method} ${path}`));
      }) as never,
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Language: English' }));
    await user.click(screen.getByRole('button', { name: 'العربية' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(request.mock.calls.map((c) => `${String(c[0])} ${String(c[1])}`)).toEqual(['GET /viewConfig/bundle/ar']);
    expect(store.getState().errors).toEqual([]);
  });
});
