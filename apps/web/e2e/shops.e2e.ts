// Shops: the home tiles, the header's redeem menu, and a real order in the demo catalog. Whoever
// signs in is the story's own participant (decision 071).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  acknowledgeCookieNotice,
  expectNoSeriousA11yViolations,
  expectVisible,
  loginForm,
  newParticipant,
  signIn,
  test,
  DEMO_PASSWORD,
} from '../../../test-support/e2e/browser.ts';

const CATALOG_URL = '**/api/v1.0/user/catalog-url/**';

const redeemButton = (page: Page) => page.getByRole('button', { name: /^redeem$|^استبدال$/i });
const shopsList = (page: Page) => page.getByRole('list', { name: /^shops$|^المتاجر$/i });

/** The balance the header shows, as a number (whatever the digits and separators of the locale). */
async function headerBalance(page: Page): Promise<number> {
  const text = (await page.getByRole('navigation').locator('a[href="/activity-history"]').first().textContent()) ?? '';
  const western = text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
  return Number(western.replace(/\D/g, ''));
}

test('the redeem menu opens and closes with the keyboard, and axe finds nothing serious in it', async ({ page }) => {
  await signIn(page, (await newParticipant({ points: 12_500 })).username);
  await acknowledgeCookieNotice(page);
  const button = redeemButton(page);
  await button.focus();
  await page.keyboard.press('Enter');
  await expectVisible(shopsList(page));
  expect(await button.getAttribute('aria-expanded')).toBe('true');

  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/merchandise catalog/i);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/experiences/i);
  await expectNoSeriousA11yViolations(page);

  await page.keyboard.press('Escape');
  await shopsList(page).waitFor({ state: 'hidden' });
  expect(await button.getAttribute('aria-expanded')).toBe('false');
  expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);

  // A click elsewhere closes it too.
  await button.click();
  await expectVisible(shopsList(page));
  await page.getByRole('heading', { name: /spend your/i }).click();
  await shopsList(page).waitFor({ state: 'hidden' });
});

test('home has no serious accessibility violation with its shop tiles', async ({ page }) => {
  await signIn(page, (await newParticipant({ points: 12_500 })).username);
  await expectVisible(page.getByRole('article', { name: 'Merchandise' }));
  await expectVisible(page.getByRole('article', { name: 'Experiences' }));
  await expectNoSeriousA11yViolations(page);
});

test('on a 320px phone in Arabic, the tiles and the open menu fit the screen', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  // Mona reads Arabic (the page is right-to-left) and shops the merchandise catalog only.
  await signIn(page, (await newParticipant({ firstName: 'Mona', locale: 'ar', offerings: 'merchandise', points: 3_250 })).username);
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  await redeemButton(page).click();
  const panel = shopsList(page);
  await expectVisible(panel);
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(320);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test('a catalog that cannot give its link: the blank tab closes, the error shows and the tile says down', async ({ page }) => {
  // The failure is simulated: the demo catalog never fails by itself.
  await page.route(CATALOG_URL, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ errorCode: 50001, responseMessage: 'error.internal', message: 'Catalog unavailable' }),
    }),
  );
  await signIn(page, (await newParticipant({ points: 12_500 })).username);
  const [blank] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: /view catalog/i }).click()]);
  await expect.poll(() => blank.isClosed()).toBe(true);
  await expectVisible(page.getByRole('alert').filter({ hasText: /something went wrong/i }));
  const tile = page.getByRole('article', { name: /merchandise catalog is down/i });
  await expectVisible(tile);
  expect(await tile.getByRole('button').count()).toBe(0);
});

test('an inactive participant whose catalog cannot be reached sees the notice and the down message', async ({ page }) => {
  await page.route(CATALOG_URL, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ errorCode: 50001, responseMessage: 'error.internal', message: 'Catalog unavailable' }),
    }),
  );
  await signIn(page, (await newParticipant({ firstName: 'Ivan', status: 'inactive', points: 1_000 })).username);
  await expectVisible(page.getByRole('heading', { name: /no longer active/i }));
  await expectVisible(page.getByText(/catalog is temporarily unavailable/i));
  await expectNoSeriousA11yViolations(page);
});

test('an inactive participant with points is taken, in the same window, to the merchandise catalog', async ({ page }) => {
  const ivan = await newParticipant({ firstName: 'Ivan', status: 'inactive', points: 1_000 });
  await page.goto('/login');
  const form = loginForm(page);
  await form.username.fill(ivan.username);
  await form.password.fill(DEMO_PASSWORD);
  await form.submit.click();
  await page.waitForURL(/\/demo-catalog\/merchandise\?token=/);
});

// Through the real GET user/catalog-url, the demo catalog and its partner API.
test('ordering in the catalog tab: the portal shows the lower balance when the participant comes back', async ({ page }) => {
  // A shopper of the story's own: the order takes points from her balance alone.
  await signIn(page, (await newParticipant({ firstName: 'Mona', points: 3_250, offerings: 'merchandise' })).username);
  const before = await headerBalance(page);
  expect(before).toBeGreaterThan(0);

  const [catalog] = await Promise.all([page.waitForEvent('popup'), page.getByRole('article').first().getByRole('button').click()]);
  await catalog.waitForURL(/\/demo-catalog\/merchandise\?token=/);
  // The catalog tab must have no handle on the portal.
  expect(await catalog.evaluate(() => window.opener)).toBeNull();

  const link = catalog.url();

  // Order the first item the catalog offers and wait for its confirmation.
  await catalog
    .getByRole('button', { name: /order|redeem|buy|اطلب|استبدل/i })
    .first()
    .click();
  await expectVisible(catalog.getByRole('status').or(catalog.getByRole('alert')));

  // The link opened the catalog once: opening it again says so and offers nothing to order.
  await catalog.goto(link);
  await expectVisible(catalog.getByRole('heading', { name: /already used|تم استخدام هذا الرابط/i }));
  expect(await catalog.locator('form').count()).toBe(0);

  // Back in the portal. Headless Chromium keeps every tab visible and focused, so the test
  // says what a real browser says when the participant returns to the tab: focus.
  await page.bringToFront();
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.dispatchEvent(new Event('focus')));
        return headerBalance(page);
      },
      { timeout: 15_000, interval: 1000 },
    )
    .toBeLessThan(before);
});
