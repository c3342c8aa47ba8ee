import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../test/render.tsx';
import { makeClient, makeUser } from '../../test/fixtures.ts';
import { GlobalAlerts } from '../errors/GlobalAlerts.tsx';
import { RedeemMenu } from './RedeemMenu.tsx';
import { ShopTiles } from './ShopTiles.tsx';
import { REFRESH_INTERVAL_MS } from './useBalanceRefresh.ts';
import { catalogApi, stubWindowOpen } from './testing.ts';

const withTravel = makeClient({ catalogs: { travelUrl: 'https://travel.example/acme' } } as never);
const menuButton = () => screen.getByRole('button', { name: 'Redeem' });

afterEach(() => vi.restoreAllMocks());

describe('the redeem menu (spec section 2, Header)', () => {
  it('opens by click with the offered shops and the travel link, and closes by click', async () => {
    renderWithApp(<RedeemMenu />, { user: makeUser(), client: withTravel });
    const user = userEvent.setup();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: 'Shops' })).not.toBeInTheDocument();

    await user.click(menuButton());
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: /Merchandise catalog/ })).toBeVisible();
    expect(screen.getByRole('button', { name: /Experiences/ })).toBeVisible();
    const travel = screen.getByRole('link', { name: /Travel/ });
    expect(travel).toHaveAttribute('href', 'https://travel.example/acme');
    expect(travel).toHaveAttribute('target', '_blank');
    expect(travel).toHaveAttribute('rel', 'noopener noreferrer');

    await user.click(menuButton());
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('lists only the offered shops and hides travel when the client has none', async () => {
    renderWithApp(<RedeemMenu />, { user: makeUser({ rewardsOffering: { merchandise: true, experiences: false } }) });
    await userEvent.setup().click(menuButton());
    expect(screen.getByRole('list', { name: 'Shops' }).querySelectorAll('li')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /Merchandise catalog/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Travel/ })).not.toBeInTheDocument();
  });

  it('never turns a travel address that is not a web address into a link', async () => {
    renderWithApp(<RedeemMenu />, { user: makeUser(), client: makeClient({ catalogs: { travelUrl: 'javascript:alert(1)' } } as never) });
    await userEvent.setup().click(menuButton());
    expect(screen.queryByRole('link', { name: /Travel/ })).not.toBeInTheDocument();
  });

  it('is not there when there is nothing to offer', () => {
    renderWithApp(<RedeemMenu />, { user: makeUser({ rewardsOffering: { merchandise: false, experiences: false } }) });
    expect(screen.queryByRole('button', { name: 'Redeem' })).not.toBeInTheDocument();
  });

  it('closes on Escape and gives focus back to its button', async () => {
    renderWithApp(<RedeemMenu />, { user: makeUser() });
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.tab();
    expect(screen.getByRole('button', { name: /Merchandise catalog/ })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton()).toHaveFocus();
  });

  it('closes on a click outside', async () => {
    renderWithApp(
      <>
        <p>Elsewhere</p>
        <RedeemMenu />
      </>,
      { user: makeUser() },
    );
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.click(screen.getByText('Elsewhere'));
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('works with the keyboard: Enter opens, arrows move, Tab leaves and closes', async () => {
    renderWithApp(
      <>
        <RedeemMenu />
        <button type="button">After</button>
      </>,
      { user: makeUser(), client: withTravel },
    );
    const user = userEvent.setup();
    await user.tab();
    expect(menuButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: /Merchandise catalog/ })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: /Experiences/ })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('link', { name: /Travel/ })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: /Merchandise catalog/ })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('link', { name: /Travel/ })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens a shop in a new tab, closes itself, and marks the home tile down when the link fails', async () => {
    const { open, tab } = stubWindowOpen();
    renderWithApp(
      <>
        <GlobalAlerts />
        <RedeemMenu />
        <ShopTiles />
      </>,
      { user: makeUser(), request: catalogApi('fail') },
    );
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.click(screen.getByRole('button', { name: /Experiences/ }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton()).toHaveFocus();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side.');
    expect(tab?.close).toHaveBeenCalled();
    expect(screen.getByRole('article', { name: 'Experiences are down' })).toBeInTheDocument();
  });

  it('sends the new tab to the signed link', async () => {
    const { tab } = stubWindowOpen();
    renderWithApp(<RedeemMenu />, { user: makeUser(), request: catalogApi('ok') });
    const user = userEvent.setup();
    await user.click(menuButton());
    await user.click(screen.getByRole('button', { name: /Merchandise catalog/ }));
    await waitFor(() => expect(tab?.location.href).toBe('https://catalog.example/merchandise?token=signed'));
    expect(tab?.opener).toBeNull();
  });

  it('in launched-as mode, shows the shops as disabled and they do nothing', async () => {
    const { open } = stubWindowOpen();
    renderWithApp(<RedeemMenu />, { user: makeUser({ adminAsUser: true }), client: withTravel });
    const user = userEvent.setup();
    await user.click(menuButton());
    const merchandise = screen.getByRole('button', { name: /Merchandise catalog/ });
    const travel = screen.getByRole('link', { name: /Travel/ });
    for (const entry of [merchandise, screen.getByRole('button', { name: /Experiences/ }), travel]) {
      expect(entry).toHaveAttribute('aria-disabled', 'true');
      expect(entry).toHaveAccessibleDescription('Catalogs cannot be opened while you act as a participant.');
    }
    expect(travel).not.toHaveAttribute('href');
    await user.click(merchandise);
    await user.click(travel);
    expect(open).not.toHaveBeenCalled();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('the balance after shopping in the catalog tab', () => {
  it('fetches the user again when the portal tab comes back, at most once every few seconds', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { request, store } = renderWithApp(<RedeemMenu />, {
      user: makeUser({ accountBalance: 12500 }),
      request: catalogApi('ok', () => makeUser({ accountBalance: 11700 })),
    });
    const userCalls = () => request.mock.calls.filter(([, path]) => path === '/user').length;

    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(store.getState().user?.accountBalance).toBe(11700));
    expect(JSON.parse(sessionStorage.getItem('userState') ?? '{}')).toMatchObject({ accountBalance: 11700 });

    // Coming back again right away (focus follows visibility): no second call.
    fireEvent.focus(window);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(userCalls()).toBe(1);

    now += REFRESH_INTERVAL_MS;
    fireEvent.focus(window);
    await waitFor(() => expect(userCalls()).toBe(2));
  });

  it('does not fetch while the tab is hidden', () => {
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const { request } = renderWithApp(<RedeemMenu />, { user: makeUser() });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(request).not.toHaveBeenCalled();
    visibility.mockRestore();
  });
});
