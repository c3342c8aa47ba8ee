// Error 20013: a participant who has not activated yet gets a warning, not an error.
import { expect } from 'vitest';
import { expectPath, expectVisible, loginForm, test, DEMO_PASSWORD } from '../../../test-support/e2e/browser.ts';

test('a participant who has not activated yet is warned to activate first', async ({ page }) => {
  await page.goto('/login');
  const form = loginForm(page);
  await form.username.fill('pending');
  await form.password.fill(DEMO_PASSWORD);
  await form.submit.click();

  // A warning is polite (role status); an error alert would be role alert.
  await expectVisible(page.getByRole('status').filter({ hasText: /not been activated|activate/i }));
  expect(await page.getByRole('alert').count()).toBe(0);
  await expectPath(page, '/login');
  expect(await page.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();
});
