import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../test/render.tsx';
import { makeClient, makeUser } from '../../test/fixtures.ts';
import { CookieNotice } from './CookieNotice.tsx';

const notice = () => screen.queryByRole('region', { name: 'Cookies and privacy' });

describe('the cookie notice', () => {
  it('links a signed-in user to the privacy notice, and records the acknowledgement on the server', async () => {
    const { request, store } = renderWithApp(<CookieNotice />, {
      user: makeUser(),
      request: (() => Promise.resolve({ privacyNotice: { hasAcknowledged: true, version: 1 } })) as never,
    });
    expect(screen.getByRole('link', { name: 'privacy notice' })).toHaveAttribute('href', '/privacy-notice');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(notice()).not.toBeInTheDocument());
    expect(request).toHaveBeenCalledWith('PUT', '/user/acknowledge-privacy-notice');
    expect(store.getState().user?.privacyNotice.hasAcknowledged).toBe(true);
  });

  it('is not shown once acknowledged, nor when the version is 0, nor before the app has loaded', () => {
    renderWithApp(<CookieNotice />, { user: makeUser({ privacyNotice: { hasAcknowledged: true, version: 1 } }) });
    expect(notice()).not.toBeInTheDocument();
    renderWithApp(<CookieNotice />, { client: makeClient({ privacyNoticeVersion: 0 }) });
    expect(notice()).not.toBeInTheDocument();
    renderWithApp(<CookieNotice />, { state: { status: 'loading' } });
    expect(notice()).not.toBeInTheDocument();
  });

  it('is not shown to an administrator acting as the participant (issue 9): the consent is theirs', () => {
    renderWithApp(<CookieNotice />, { user: makeUser({ adminAsUser: true }) });
    expect(notice()).not.toBeInTheDocument();
  });

  it("keeps an anonymous visitor's acknowledgement in localStorage for that version", async () => {
    const { request } = renderWithApp(<CookieNotice />);
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy-shield');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Got it' }));
    expect(notice()).not.toBeInTheDocument();
    expect(localStorage.getItem('privacyNoticeAcknowledged')).toBe('1');
    expect(request).not.toHaveBeenCalled();
  });
});
