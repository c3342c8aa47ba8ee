import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../test/render.tsx';
import { makeUser } from '../test/fixtures.ts';
import { AppRoutes } from './AppRoutes.tsx';
import { resolveRoute, routes } from './routes.ts';

const where = () => screen.getByTestId('location').textContent;

describe('resolveRoute: the rules of navigation (spec section 2)', () => {
  const anonymousOnly = [
    '/activation',
    '/login',
    '/launch-as',
    '/forgot-user-id',
    '/forgot-password',
    '/reset-password',
    '/sso-authenticated',
    '/sso-logout',
  ];
  const signedInOnly = ['/home', '/profile', '/rules', '/contact', '/activity-history', '/privacy-notice'];
  const everyone = ['/faqs', '/privacy-shield', '/error', '/ssoGatewayLogonFailure', '/ssoLogonFailure', '/ssoFailure'];

  it('has every route of the table', () => {
    expect(routes.map((r) => r.path).sort()).toEqual([...anonymousOnly, ...signedInOnly, ...everyone].sort());
  });

  it.each(anonymousOnly)('%s is for visitors; a signed-in user goes to /home', (path) => {
    expect(resolveRoute(path, false).route?.path).toBe(path);
    expect(resolveRoute(path, true)).toEqual({ redirect: '/home' });
  });

  it.each(signedInOnly)('%s is for signed-in users; a visitor goes to /login', (path) => {
    expect(resolveRoute(path, true).route?.path).toBe(path);
    expect(resolveRoute(path, false)).toEqual({ redirect: '/login' });
  });

  it.each(everyone)('%s is open to everyone', (path) => {
    expect(resolveRoute(path, true).route?.path).toBe(path);
    expect(resolveRoute(path, false).route?.path).toBe(path);
  });

  it('sends / and unknown paths to /home or /login', () => {
    expect(resolveRoute('/', true)).toEqual({ redirect: '/home' });
    expect(resolveRoute('/', false)).toEqual({ redirect: '/login' });
    expect(resolveRoute('/no/such/page', true)).toEqual({ redirect: '/home' });
    expect(resolveRoute('/no/such/page', false)).toEqual({ redirect: '/login' });
  });

  it('preloads in the spec order: login, home, activation, profile first', () => {
    const order = [...routes].sort((a, b) => a.priority - b.priority).map((r) => r.path);
    expect(order.slice(0, 4)).toEqual(['/login', '/home', '/activation', '/profile']);
    expect(Math.max(...routes.map((r) => r.priority))).toBe(13);
  });
});

describe('AppRoutes: guards, redirects and modals', () => {
  it('shows the sign-in page to a visitor at /', async () => {
    renderWithApp(<AppRoutes />, { path: '/' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(where()).toBe('/login');
    await waitFor(() => expect(document.title).toBe('Sign in | Acme Rewards'));
  });

  it('sends a visitor from a signed-in page to /login', async () => {
    renderWithApp(<AppRoutes />, { path: '/home' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(where()).toBe('/login');
  });

  it('sends a signed-in user from /login to /home', async () => {
    renderWithApp(<AppRoutes />, { path: '/login', user: makeUser() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(where()).toBe('/home');
  });

  it('sends a signed-in user from an unknown path to /home', async () => {
    renderWithApp(<AppRoutes />, { path: '/nowhere', user: makeUser() });
    expect(await screen.findByRole('link', { name: '12,500' })).toBeInTheDocument();
    expect(where()).toBe('/home');
  });

  it('opens a modal deep link over /home, and closes it there', async () => {
    const user = userEvent.setup();
    renderWithApp(<AppRoutes />, { path: '/profile', user: makeUser() });
    // The profile page's module is transformed on first import: slow on a busy machine.
    const dialog = await screen.findByRole('dialog', { name: 'Your profile' }, { timeout: 5000 });
    expect(dialog).toBeInTheDocument();
    // The page behind stays in the document.
    expect(screen.getByRole('heading', { level: 1, name: 'Home', hidden: true })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Profile | Acme Rewards'));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(where()).toBe('/home');
  });

  it('opens a modal from a footer link over the page and closes it with Escape', async () => {
    const user = userEvent.setup();
    renderWithApp(<AppRoutes />, { path: '/login' });
    await screen.findByRole('heading', { name: 'Sign in' });
    await user.click(screen.getByRole('link', { name: 'Privacy policy' }));
    expect(await screen.findByRole('dialog', { name: 'Privacy policy' })).toBeInTheDocument();
    expect(where()).toBe('/privacy-shield');
    expect(screen.getByRole('heading', { name: 'Sign in', hidden: true })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(where()).toBe('/login');
    // Focus returns to the link that opened it.
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveFocus();
  });

  it('keeps a visitor out of a signed-in modal', async () => {
    renderWithApp(<AppRoutes />, { path: '/activity-history' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(where()).toBe('/login');
  });

  it('shows the error screen on the SSO failure routes', async () => {
    renderWithApp(<AppRoutes />, { path: '/ssoLogonFailure' });
    const dialog = await screen.findByRole('dialog', { name: 'Something went wrong' });
    expect(dialog).toHaveTextContent('Signing in through your company account did not work.');
  });
});
