import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import HomePage from '../../app/HomePage.tsx';
import { GlobalAlerts } from '../errors/GlobalAlerts.tsx';
import { browserWindow } from './openCatalog.ts';
import { INACTIVE_REDIRECTED } from './InactiveRedirect.tsx';
import { catalogApi } from './testing.ts';

const inactive = (overrides = {}) => makeUser({ userName: 'inactive', isInActiveHasPoints: true, accountBalance: 1000, ...overrides });

afterEach(() => vi.restoreAllMocks());

describe('an inactive participant with points (spec section 4)', () => {
  it('sees the inactive notice instead of home while this window goes to the merchandise catalog', async () => {
    const assign = vi.spyOn(browserWindow, 'assign').mockImplementation(() => {});
    const { request } = renderWithApp(<HomePage />, { user: inactive(), request: catalogApi('ok') });
    expect(screen.getByRole('heading', { level: 2, name: 'Your account is no longer active' })).toBeInTheDocument();
    expect(screen.getByText('You can still spend your remaining 1,000 Acme Points in the rewards catalog.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Taking you to the catalog…');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://catalog.example/merchandise?token=signed'));
    expect(request).toHaveBeenCalledWith('GET', '/user/catalog-url/merchandise');
    // Not the regular home: no welcome, no tiles.
    expect(screen.queryByText(/Welcome back/)).not.toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows the catalog-down message when the link cannot be had', async () => {
    const assign = vi.spyOn(browserWindow, 'assign').mockImplementation(() => {});
    renderWithApp(
      <>
        <GlobalAlerts />
        <HomePage />
      </>,
      { user: inactive(), request: catalogApi('fail') },
    );
    expect(await screen.findByText('The catalog is temporarily unavailable. Please try again later.')).toBeInTheDocument();
    expect(screen.queryByText('Taking you to the catalog…')).not.toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    // One message, not two: the server's error is not repeated as an alert.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('back from the catalog in the same session, offers a button instead of bouncing out again', async () => {
    sessionStorage.setItem(INACTIVE_REDIRECTED, 'session-1');
    const assign = vi.spyOn(browserWindow, 'assign').mockImplementation(() => {});
    const { request } = renderWithApp(<HomePage />, { user: inactive(), request: catalogApi('ok') });
    expect(request).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go to the catalog' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://catalog.example/merchandise?token=signed'));
  });

  it('does not send an administrator acting as the participant anywhere', () => {
    const { request } = renderWithApp(<HomePage />, { user: inactive({ adminAsUser: true }), request: catalogApi('ok') });
    expect(screen.getByRole('heading', { level: 2, name: 'Your account is no longer active' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to the catalog' })).toBeDisabled();
    expect(request).not.toHaveBeenCalled();
  });
});
