// Your account (decision 070): a support agent, enrolled just now, changes the password (a wrong
// current one is refused first), asks for new recovery codes after the step-up and sees them once,
// adds a passkey (Chromium's virtual authenticator), then signs out and back in with the new
// password and the passkey; the old password no longer works.
import { expect } from 'vitest';
import {
  ageSecondFactor,
  checkScreen,
  closePage,
  enrolmentLink,
  enrolNewStaff,
  expectVisible,
  nextTotpCode,
  openConsole,
  staffEmail,
  STAFF_PASSWORD,
  test,
} from './harness/console.ts';
import type { Page } from 'playwright-core';

/** Chromium's virtual authenticator: a platform passkey that verifies the user at once. */
async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

const NEW_PASSWORD = 'Quiet-Harbour-2027';

test('a staff member changes the password, renews the recovery codes, adds a passkey and signs in with both', async ({ browser }) => {
  const { page, secret, ...alex } = await enrolNewStaff(browser, 'Alex Account', 'support_agent');
  await virtualAuthenticator(page);

  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
  const factors = page.getByRole('region', { name: 'Second factors' });
  await expectVisible(factors.getByText('Set up'));
  await expectVisible(factors.getByText('10 of 10'));

  // The password: a wrong current one is refused and changes nothing; the right one changes it.
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password').fill('Not-My-Password-1');
  await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expectVisible(password.getByRole('alert').getByText('The current password is not right. Nothing was changed.'));
  await password.getByLabel('Current password').fill(STAFF_PASSWORD);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expectVisible(password.getByRole('status').getByText(/^Password changed\./));

  // New recovery codes: the step-up first (the sign-in's factor made old), then the codes, once.
  ageSecondFactor(alex.email);
  await factors.getByRole('button', { name: 'Get new recovery codes' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.waitFor();
  await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  const shown = factors.getByRole('list', { name: 'Your new recovery codes' });
  await shown.waitFor();
  const codes = await shown.getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await checkScreen(page, 'account-recovery-codes');
  await factors.getByRole('button', { name: 'I have saved them' }).click();
  expect(await shown.count()).toBe(0);

  // A passkey (the step-up is still fresh).
  await factors.getByRole('button', { name: 'Add a passkey' }).click();
  await expectVisible(factors.getByRole('status').getByText('Passkey added.'));
  await expectVisible(factors.getByRole('row', { name: /Passkey 1/ }));
  // With the authenticator app set up, the passkey may be removed: its button is offered.
  await expectVisible(factors.getByRole('button', { name: /^Remove passkey 1, added/ }));
  await checkScreen(page, 'account');

  // Out, and back in: the old password is refused, the new one with the passkey signs in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expectVisible(page.getByText('You are signed out.'));
  await page.getByLabel('E-mail address').fill(alex.email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectVisible(page.getByRole('alert').getByText('Wrong e-mail address or password.'));
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  await expectVisible(page.getByText(`Signed in as ${alex.name}`));

  // The account page shows the passkey's use.
  await page.getByRole('link', { name: 'Your account' }).click();
  const row = page.getByRole('region', { name: 'Second factors' }).getByRole('row', { name: /Passkey 1/ });
  await row.waitFor();
  expect(await row.locator('td').nth(2).textContent()).not.toBe('never');
  await closePage(page);
});

test('a staff member who enrolled with a passkey sets up an authenticator app, and then may remove the passkey', async ({ browser }) => {
  const email = staffEmail('Petra Passkey');
  const link = await enrolmentLink(email, 'Petra Passkey', 'auditor');
  const page = await openConsole(browser);
  await virtualAuthenticator(page);
  await page.goto(link);
  await page.getByLabel('New password').fill(STAFF_PASSWORD);
  await page.getByLabel('Repeat the password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await page.getByRole('button', { name: 'I have saved them: open the console' }).click();
  await page.getByRole('link', { name: 'Your account' }).click();

  const factors = page.getByRole('region', { name: 'Second factors' });
  await expectVisible(factors.getByText('Not set up'));
  // The only passkey, no authenticator app: no way to remove it is offered.
  await expectVisible(factors.getByText('Your only passkey cannot be removed while you have no authenticator app.'));
  expect(await factors.getByRole('button', { name: /^Remove passkey/ }).count()).toBe(0);

  ageSecondFactor(email);
  await factors.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.waitFor();
  await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
  await expectVisible(factors.getByRole('img', { name: 'QR code of the authenticator secret' }));
  await checkScreen(page, 'account-totp');
  const secret = (await factors.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await factors.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  await factors.getByRole('button', { name: 'Confirm code' }).click();
  await expectVisible(factors.getByRole('status').getByText('Authenticator app set up.'));
  await expectVisible(factors.getByText('Set up', { exact: true }));

  await factors.getByRole('button', { name: /^Remove passkey 1, added/ }).click();
  await expectVisible(factors.getByRole('status').getByText('Passkey removed.'));
  await expectVisible(factors.getByText(/^No passkey yet\./));
  await closePage(page);
});
