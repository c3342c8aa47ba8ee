import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RequestError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import LoginPage from './LoginPage.tsx';

const reject = (status: number, errorCode: number, responseMessage: string) => () =>
  Promise.reject(new RequestError({ status, errorCode, responseMessage, message: responseMessage }));

async function signIn(password = 'Rewards-2026!') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('User ID'), 'demo');
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the login screen', () => {
  it('has its fields and the links of spec section 2', () => {
    renderWithApp(<LoginPage />, { path: '/login' });
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot your user ID?' })).toHaveAttribute('href', '/forgot-user-id');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Activate your account' })).toHaveAttribute('href', '/activation');
  });

  it('asks for empty fields instead of calling the server', async () => {
    const { request } = renderWithApp(<LoginPage />, { path: '/login' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter your user ID.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(screen.getByLabelText('User ID')).toHaveAttribute('aria-invalid', 'true');
    expect(request).not.toHaveBeenCalled();
  });

  it('shows and hides the password', async () => {
    renderWithApp(<LoginPage />, { path: '/login' });
    const user = userEvent.setup();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows the translated error of a failed sign-in', async () => {
    renderWithApp(<LoginPage />, { path: '/login', request: reject(401, 20001, 'login.error.invalidCredentials') });
    await signIn('wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent("That user ID and password don't match our records.");
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('shows a warning, not an error, for a participant who has not activated (20013)', async () => {
    renderWithApp(<LoginPage />, { path: '/login', request: reject(403, 20013, 'login.warning.preActivation') });
    await signIn();
    expect(await screen.findByRole('status')).toHaveTextContent('Your account has not been activated yet.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('tells a user whose session timed out', () => {
    renderWithApp(<LoginPage />, { path: '/login', state: { sessionTimedOut: true } });
    expect(screen.getByRole('status')).toHaveTextContent('Your session timed out');
  });

  it('signs in and stores the user state in session storage', async () => {
    const demo = makeUser();
    const { store, request } = renderWithApp(<LoginPage />, { path: '/login', request: () => Promise.resolve(demo) as never });
    await signIn();
    await screen.findByRole('button', { name: 'Sign in' });
    expect(request).toHaveBeenCalledWith(
      'POST',
      '/login',
      expect.objectContaining({ body: { username: 'demo', password: 'Rewards-2026!' } }),
    );
    expect(store.getState().user).toEqual(demo);
    expect(JSON.parse(sessionStorage.getItem('userState') ?? 'null')).toMatchObject({ sessionId: 'session-1' });
  });
});
