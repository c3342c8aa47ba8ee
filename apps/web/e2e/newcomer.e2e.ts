// A newcomer's first visit: sign in, see the points, follow them to the history, sign out.
// Dana is the story's own (decision 071), with the demo's 12,500 points.
import { expect } from 'vitest';
import {
  expectPath,
  expectVisible,
  signOutControl,
  loginForm,
  newParticipant,
  test,
  DEMO_PASSWORD,
} from '../../../test-support/e2e/browser.ts';

test('a newcomer signs in, sees 12,500 Acme Points, opens the history and signs out', async ({ page }) => {
  const dana = await newParticipant({ firstName: 'Dana', lastName: 'Demo', points: 12_500 });
  await page.goto('/');
  await expectPath(page, '/login');

  const form = loginForm(page);
  await form.username.fill(dana.username);
  await form.password.fill(DEMO_PASSWORD);
  await form.submit.click();
  await expectPath(page, '/home');

  // The welcome in the points section: the balance for en-US, then the media label.
  const main = page.getByRole('main');
  await expectVisible(main.getByText('12,500'));
  await expectVisible(main.getByText(/Acme Points/));
  await expectVisible(page.getByText('Dana Demo'));

  await main
    .getByRole('link', { name: /12,500/ })
    .first()
    .click();
  await expectPath(page, '/activity-history');
  // The history is a modal over home: close it to reach the user bar again.
  await page.getByRole('dialog').getByRole('button', { name: /close/i }).click();
  await expectPath(page, '/home');

  await signOutControl(page).click();
  await expectPath(page, '/login');
  await expectVisible(loginForm(page).username);
  expect(await page.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();
});
