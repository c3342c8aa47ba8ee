// axe finds nothing serious, and sign-in works with the keyboard alone. Whoever signs in is the
// story's own participant (decision 071), with the demo's 12,500 points and the cookie notice
// not yet closed, whatever ran before.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  acknowledgeCookieNotice,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  loginForm,
  newParticipant,
  signIn,
  test,
  DEMO_PASSWORD,
} from '../../../test-support/e2e/browser.ts';

test('the login page has no serious accessibility violation', async ({ page }) => {
  await page.goto('/login');
  await expectVisible(loginForm(page).username);
  await expectNoSeriousA11yViolations(page);
});

test('home has no serious accessibility violation', async ({ page }) => {
  await signIn(page, (await newParticipant({ points: 12_500 })).username);
  await expectVisible(page.getByText('12,500'));
  await expectNoSeriousA11yViolations(page);
});

test('an open modal has no serious accessibility violation', async ({ page }) => {
  await signIn(page, (await newParticipant()).username);
  await acknowledgeCookieNotice(page); // it covers the footer
  await page.getByRole('contentinfo').getByRole('link', { name: /faq/i }).click();
  await expectVisible(page.getByRole('dialog'));
  await expectNoSeriousA11yViolations(page);
});

test('signing in works with Tab and Enter alone', async ({ page }) => {
  const { username } = await newParticipant({ points: 12_500 });
  await page.goto('/login');
  const form = loginForm(page);
  await expectVisible(form.username);

  await tabTo(page, form.username);
  await page.keyboard.type(username);
  await tabTo(page, form.password);
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');

  await expectPath(page, '/home');
  await expectVisible(page.getByText('12,500'));
});

/** Presses Tab until the target has focus; fails if it is not reached in 25 presses. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 25; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  expect.fail(`Tab never reached ${target.toString()}`);
}
