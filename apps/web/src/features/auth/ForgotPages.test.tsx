import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RequestError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import ForgotUserIdPage from './ForgotUserIdPage.tsx';
import ForgotPasswordPage from './ForgotPasswordPage.tsx';

const accepted = () => Promise.resolve({ result: 'accepted' }) as never;
const throttled = () =>
  Promise.reject(new RequestError({ status: 429, errorCode: 80002, responseMessage: 'error.generic', message: 'Too many requests' }));

describe('the forgot user id page', () => {
  it('asks for an email address, with links to sign in and to the forgot password page', () => {
    renderWithApp(<ForgotUserIdPage />, { path: '/forgot-user-id' });
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot your user ID?' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveAttribute('type', 'email');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it('checks the address before calling the server', async () => {
    const { request } = renderWithApp(<ForgotUserIdPage />, { path: '/forgot-user-id' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Email my user ID' }));
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email address'), 'dana.example.com');
    await user.click(screen.getByRole('button', { name: 'Email my user ID' }));
    expect(screen.getByText('Enter an email address like name@example.com.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it('says the same thing whatever the address, and offers to sign in', async () => {
    const { request, store } = renderWithApp(<ForgotUserIdPage />, { path: '/forgot-user-id', request: accepted });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), ' dana@example.com ');
    await user.click(screen.getByRole('button', { name: 'Email my user ID' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If the email address matches an account, we have sent your user ID to it.',
    );
    expect(request).toHaveBeenCalledWith('POST', '/forgotUsername', { body: { emailAddress: 'dana@example.com' }, sessionId: null });
    expect(screen.queryByLabelText('Email address')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(store.getState().successes.map((s) => s.successType)).toEqual(['forgotUserId']);
  });

  it("shows the server's error and keeps the address", async () => {
    renderWithApp(<ForgotUserIdPage />, { path: '/forgot-user-id', request: throttled });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email address'), 'dana@example.com');
    await user.click(screen.getByRole('button', { name: 'Email my user ID' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again.');
    expect(screen.getByLabelText('Email address')).toHaveValue('dana@example.com');
  });
});

describe('the forgot password page', () => {
  it('asks for the user id and the email address, with links', () => {
    renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeInTheDocument();
    expect(screen.getByLabelText('User ID')).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Forgot your user ID?' })).toHaveAttribute('href', '/forgot-user-id');
  });

  it('checks both fields before calling the server', async () => {
    const { request } = renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Email me a reset link' }));
    expect(screen.getByText('Enter your user ID.')).toBeInTheDocument();
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument();
    expect(screen.getByLabelText('User ID')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it('sends both and shows the same message whether or not they match', async () => {
    const { request } = renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password', request: accepted });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('User ID'), 'demo');
    await user.type(screen.getByLabelText('Email address'), 'demo@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If the details match an account, we have sent an email with a link to reset your password.',
    );
    expect(request).toHaveBeenCalledWith('POST', '/forgotPassword', {
      body: { userName: 'demo', emailAddress: 'demo@example.com' },
      sessionId: null,
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
  });

  it("shows the server's error", async () => {
    const { store } = renderWithApp(<ForgotPasswordPage />, { path: '/forgot-password', request: throttled });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('User ID'), 'demo');
    await user.type(screen.getByLabelText('Email address'), 'demo@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again.');
    expect(store.getState().errors.map((e) => e.errorType)).toEqual(['forgotPassword']);
  });
});
