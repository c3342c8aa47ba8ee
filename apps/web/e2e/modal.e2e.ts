// A modal opens over the page it was opened from, which stays visible, and closes back to it.
// Each story's participant is its own (decision 071).
import { acknowledgeCookieNotice, expectPath, expectVisible, newParticipant, signIn, test } from '../../../test-support/e2e/browser.ts';

test('the FAQs open over home and close back to home', async ({ page }) => {
  await signIn(page, (await newParticipant({ points: 12_500 })).username);
  await acknowledgeCookieNotice(page); // it covers the footer
  await page.getByRole('contentinfo').getByRole('link', { name: /faq/i }).click();
  await expectPath(page, '/faqs');

  const dialog = page.getByRole('dialog');
  await expectVisible(dialog);
  // Home stays behind the modal (inert, so found by CSS rather than by role).
  await expectVisible(page.locator('main').getByText('12,500'));

  await dialog.getByRole('button', { name: /close/i }).click();
  await expectPath(page, '/home');
  await dialog.waitFor({ state: 'hidden' });
});

test('the profile opened from the user bar goes back to home with the browser', async ({ page }) => {
  await signIn(page, (await newParticipant()).username);
  await page
    .getByRole('banner')
    .getByRole('link', { name: /profile/i })
    .click();
  await expectPath(page, '/profile');
  await expectVisible(page.getByRole('dialog'));

  await page.goBack();
  await expectPath(page, '/home');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
});
