import type { Page } from 'playwright-core';
import { acknowledgeCookieNotice } from '../../test-support/e2e/pages.ts';
import type { ScreenKit } from './kit.ts';

const CATALOG_URL = '**/api/v1.0/user/catalog-url/**';

/** The catalog-url call fails (the server's own message key shows in the alert). */
async function failCatalogLinks(page: Page): Promise<void> {
  await page.route(CATALOG_URL, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ errorCode: 50001, responseMessage: 'error.internal', message: 'Catalog unavailable' }),
    }),
  );
}

/**
 * Shows the travel link even before the server's client data carries one (the field arrives
 * with the catalog work on the server); a configured link is left as it is. Client data comes
 * embedded in the page (#client-data) or from the API, so both are amended.
 */
async function withTravelLink(page: Page): Promise<void> {
  const travelUrl = 'https://travel.example/acme';
  await page.addInitScript((url) => {
    document.addEventListener('readystatechange', () => {
      const element = document.getElementById('client-data');
      if (document.readyState !== 'interactive' || !element?.textContent) return;
      const client = JSON.parse(element.textContent) as { catalogs?: { travelUrl?: string } };
      if (!client.catalogs?.travelUrl) client.catalogs = { ...client.catalogs, travelUrl: url };
      element.textContent = JSON.stringify(client);
    });
  }, travelUrl);
  await page.route('**/api/v1.0/viewConfig/client', async (route) => {
    const response = await route.fetch();
    const client = (await response.json()) as { catalogs?: { travelUrl?: string } };
    if (!client.catalogs?.travelUrl) client.catalogs = { ...client.catalogs, travelUrl };
    await route.fulfill({ response, json: client });
  });
}

async function openMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^redeem$|^استبدال$/i }).click();
  await page.getByRole('list', { name: /shops|المتاجر/i }).waitFor();
}

/** Screens of the shops capability (issue 5): tiles, the redeem menu, the down states. */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      await withTravelLink(page);
      await kit.signIn(page);
      await kit.switchTo(page, locale);
      await page.locator('.shop-tile').first().waitFor();
      await acknowledgeCookieNotice(page); // it would cover the tiles
      await kit.shoot(page, `shops-tiles-${locale.code}-${width}`);

      await openMenu(page);
      await kit.shoot(page, `shops-menu-${locale.code}-${width}`);
      await page.keyboard.press('Escape');

      // A catalog that cannot give a link: the alert, and the tile turned "down".
      await failCatalogLinks(page);
      await page.locator('.shop-tile--merchandise .shop-tile__button').click();
      await page.locator('.shop-tile--down').waitFor();
      await kit.shoot(page, `shops-down-${locale.code}-${width}`);
      await page.context().close();
    }
  }

  // Merchandise only (the merch demo participant reads Arabic): one wide tile.
  for (const width of kit.widths) {
    const page = await kit.newPage(width);
    await kit.signIn(page, 'merch');
    await page.locator('.shop-tile').first().waitFor();
    await acknowledgeCookieNotice(page);
    await kit.shoot(page, `shops-merch-only-ar-${width}`);
    await page.context().close();
  }

  // Inactive with points, when the catalog cannot be reached: the notice stays with the message.
  for (const width of kit.widths) {
    const page = await kit.newPage(width);
    await failCatalogLinks(page);
    await kit.signIn(page, 'inactive');
    await page.locator('.inactive .ui-alert').waitFor();
    await kit.shoot(page, `shops-inactive-down-en-US-${width}`);
    await page.context().close();
  }
}
