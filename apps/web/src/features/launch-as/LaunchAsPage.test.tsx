import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { UserData } from '@rewards/contract';
import { RequestError } from '../../api/client.ts';
import { makeUser } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import LaunchAsPage from './LaunchAsPage.tsx';

describe('the launch-as page (spec sections 2, 4, 5)', () => {
  it("raises the 'No login token' error for an empty query string, and posts nothing", async () => {
    const { request } = renderWithApp(<LaunchAsPage />, { path: '/launch-as' });
    expect(await screen.findByRole('alert')).toHaveTextContent('No login token');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent("The participant's account could not be opened");
    expect(request).not.toHaveBeenCalled();
  });

  it('posts the token once, signs in as the participant with adminAsUser, and takes the token out of the address', async () => {
    const launched: UserData = makeUser({ adminAsUser: true, sessionId: 'S'.repeat(43) });
    const { request, store } = renderWithApp(<LaunchAsPage />, {
      path: '/launch-as?token=tok-123',
      request: (async (method: string, path: string) => {
        if (method === 'POST' && path === '/launchAs') return launched;
        throw new Error(`unexpected ${method} ${path}`);
      }) as never,
    });
    await waitFor(() => expect(store.getState().user?.adminAsUser).toBe(true));
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0]?.slice(0, 3)).toEqual(['POST', '/launchAs', { body: { token: 'tok-123' }, sessionId: null }]);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(JSON.parse(sessionStorage.getItem('userState') ?? '{}')).toMatchObject({ adminAsUser: true });
  });

  it("shows the server's reason for a used link", async () => {
    renderWithApp(<LaunchAsPage />, {
      path: '/launch-as?token=tok-used',
      request: (() =>
        Promise.reject(
          new RequestError({ status: 409, errorCode: 91003, responseMessage: 'launchAs.error.used', message: 'used' }),
        )) as never,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This launch link has already been used');
    expect(screen.getByTestId('location')).toHaveTextContent('/launch-as');
  });
});
