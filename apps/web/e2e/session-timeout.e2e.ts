// A session that ends on the server: the next call's 401 takes the spec's timeout path.
import { expect, inject } from 'vitest';
import { rewardsCli } from './harness/server.ts';
import { expectPath, expectVisible, loginForm, signIn, test } from './harness/browser.ts';

test('a session revoked on the server sends the participant back to /login, told it timed out', async ({ page }) => {
  // Not `demo`: revoking ends every session of the user, so this test keeps to its own.
  await signIn(page, 'spent');
  await rewardsCli(inject('databaseUrl'), ['sessions', 'revoke', '--username', 'spent']);

  // The next call the app makes with the dead session: the start-up fetch of the user.
  await page.reload();

  await expectPath(page, '/login');
  await expectVisible(page.getByText(/timed out|session (has )?expired/i));
  await expectVisible(loginForm(page).username);
  expect(await page.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();
});
