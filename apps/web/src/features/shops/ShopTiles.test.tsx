import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import { GlobalAlerts } from '../errors/GlobalAlerts.tsx';
import { ShopTiles } from './ShopTiles.tsx';
import { browserWindow } from './openCatalog.ts';
import { catalogApi, stubWindowOpen } from './testing.ts';

const tile = (name: RegExp | string) => screen.getByRole('article', { name });

function renderTiles(options: Parameters<typeof renderWithApp>[1]) {
  return renderWithApp(
    <>
      <GlobalAlerts />
      <ShopTiles />
    </>,
    options,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('home shop tiles (spec section 2)', () => {
  it('shows a merchandise and an experiences tile, each with its button', () => {
    renderTiles({ user: makeUser() });
    expect(screen.getByRole('heading', { level: 2, name: 'Spend your Acme Points' })).toBeInTheDocument();
    expect(within(tile('Merchandise')).getByRole('button', { name: /View catalog/ })).toBeEnabled();
    expect(within(tile('Experiences')).getByRole('button', { name: /View experiences/ })).toBeEnabled();
  });

  it('shows only the tiles of the offering', () => {
    renderTiles({ user: makeUser({ rewardsOffering: { merchandise: true, experiences: false } }) });
    expect(tile('Merchandise')).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Experiences' })).not.toBeInTheDocument();
  });

  it('shows nothing without an offering, and nothing before sign-in', () => {
    const { unmount } = renderTiles({ user: makeUser({ rewardsOffering: { merchandise: false, experiences: false } }) });
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    unmount();
    renderTiles({ user: null });
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('disables both buttons for an administrator acting as the participant, and says why', async () => {
    const { open } = stubWindowOpen();
    renderTiles({ user: makeUser({ adminAsUser: true }) });
    const button = within(tile('Merchandise')).getByRole('button', { name: /View catalog/ });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Catalogs cannot be opened while you act as a participant.');
    expect(within(tile('Experiences')).getByRole('button', { name: /View experiences/ })).toBeDisabled();
    await userEvent.setup().click(button);
    expect(open).not.toHaveBeenCalled();
  });

  it('shows one merchandise tile, down, when the offering is unavailable', () => {
    renderTiles({ user: makeUser({ rewardsOfferingUnavailable: true }) });
    const down = tile('Merchandise catalog is down');
    expect(down).toHaveTextContent('The catalog is temporarily unavailable. Please try again later.');
    expect(within(down).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(1);
  });
});

describe('opening a catalog from a tile (spec section 4)', () => {
  it('opens a blank tab at once, then sends it to the signed link without a handle on the portal', async () => {
    const { open, tab } = stubWindowOpen();
    const { request } = renderTiles({ user: makeUser(), request: catalogApi('ok') });
    await userEvent.setup().click(screen.getByRole('button', { name: /View experiences/ }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab?.location.href).toBe('https://catalog.example/experiences?token=signed'));
    expect(tab?.opener).toBeNull();
    expect(request).toHaveBeenCalledWith('GET', '/user/catalog-url/experiences');
    expect(tile('Experiences')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('closes the blank tab on failure, shows the error and turns the tile to down', async () => {
    const { tab } = stubWindowOpen();
    renderTiles({ user: makeUser(), request: catalogApi('fail') });
    await userEvent.setup().click(screen.getByRole('button', { name: /View catalog/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side. Please try again later.');
    expect(tab?.close).toHaveBeenCalled();
    const down = tile('Merchandise catalog is down');
    expect(down).toHaveTextContent('The catalog is temporarily unavailable.');
    expect(within(down).queryByRole('button')).not.toBeInTheDocument();
    // The other catalog is not affected.
    expect(screen.getByRole('button', { name: /View experiences/ })).toBeEnabled();
  });

  it('goes there in this window when the browser blocked the new tab', async () => {
    stubWindowOpen(null);
    const assign = vi.spyOn(browserWindow, 'assign').mockImplementation(() => {});
    renderTiles({ user: makeUser(), request: catalogApi('ok') });
    await userEvent.setup().click(screen.getByRole('button', { name: /View catalog/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://catalog.example/merchandise?token=signed'));
  });
});
