// A session that ends on the server: the next call's 401 takes the spec's timeout path.
import { expect, inject } from 'vitest';
import { rewardsCli } from '../../../test-support/e2e/operator.ts';
import { expectPath, expectVisible, loginForm, newParticipant, signIn, test } from '../../../test-support/e2e/browser.ts';

test('a session revoked on the server sends the participant back to /login, told it timed out', async ({ page }) => {
  // A participant of the story's own: revoking ends every session of the user (decision 071).
  const { username } = await newParticipant();
  await signIn(page, username);
  await rewardsCli(inject('databaseUrl'), ['sessions', 'revoke', '--username', username]);

  // The next call the app makes with the dead session: the start-up fetch of the user.
  await page.reload();

  await expectPath(page, '/login');
  await expectVisible(page.getByText(/timed out|session (has )?expired/i));
  await expectVisible(loginForm(page).username);
  expect(await page.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();
});
