import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { RequestError, type ApiClient } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import ResetPasswordPage from './ResetPasswordPage.tsx';

const GUID = 'q8Yk3vWm2NcZ0pLrT5sXa7bHd9eFg1jK4uQo6iRyVwE';
const GOOD = 'Garden-Path-42';

function SearchProbe() {
  return <div data-testid="search">{useLocation().search}</div>;
}

function open(path = `/reset-password?passwordGuid=${GUID}`, request?: ApiClient['request']) {
  return renderWithApp(
    <>
      <ResetPasswordPage />
      <SearchProbe />
    </>,
    { path, ...(request ? { request } : {}) },
  );
}

const fail = (status: number, responseMessage: string) => () =>
  Promise.reject(new RequestError({ status, errorCode: 80010, responseMessage, message: responseMessage }));

async function choose(password: string, confirm = password) {
  const user = userEvent.setup();
  if (password) await user.type(screen.getByLabelText('New password'), password);
  if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Save new password' }));
}

afterEach(() => {
  document.head.querySelectorAll('meta[name="referrer"]').forEach((meta) => meta.remove());
});

describe('the reset password page', () => {
  it('reads the guid, takes it out of the address and asks for no Referer', async () => {
    const { unmount } = open();
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent(''));
    expect(screen.getByTestId('location')).toHaveTextContent('/reset-password');
    expect(document.head.querySelector('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
    unmount();
    expect(document.head.querySelector('meta[name="referrer"]')).toBeNull();
  });

  it('checks the new password before calling the server', async () => {
    const { request } = open();
    await choose('');
    expect(screen.getByText('Enter a new password.')).toBeInTheDocument();
    await choose('garden', 'gardens');
    expect(screen.getByText('Your password does not meet all the password rules yet.')).toBeInTheDocument();
    expect(screen.getByText('The two passwords do not match.')).toBeInTheDocument();
    expect(request).not.toHaveBeenCalled();
  });

  it('saves the password with the guid from the link, then offers to sign in', async () => {
    const { request } = open(undefined, () => Promise.resolve({ result: 'saved' }) as never);
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent(''));
    await choose(GOOD);
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed. You can sign in with it now.');
    expect(request).toHaveBeenCalledWith('POST', '/savePassword', { body: { password: GOOD, passwordGuid: GUID }, sessionId: null });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('shows an expired or used link as such, with a way to ask for a new one', async () => {
    open(undefined, fail(410, 'account.error.resetLinkExpired'));
    await choose(GOOD);
    expect(await screen.findByRole('heading', { level: 1, name: 'This link no longer works' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ask for a new link');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('treats a missing or malformed guid as a dead link, without calling the server', () => {
    const { request } = open('/reset-password');
    expect(screen.getByRole('heading', { level: 1, name: 'This link no longer works' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(request).not.toHaveBeenCalled();
  });

  it("keeps the form for other errors and shows the server's text", async () => {
    open(undefined, fail(400, 'error.validation'));
    await choose(GOOD);
    expect(await screen.findByRole('alert')).toHaveTextContent('Some of the information entered is not valid.');
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });
});
