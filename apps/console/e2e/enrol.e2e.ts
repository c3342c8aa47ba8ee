// Getting in (issue 17, section 1): a new person opens the enrolment link the operator printed,
// sets a password under the staff rules, and adds a second factor — a code of the authenticator
// app (from the secret the page shows) or a passkey (Chromium's virtual authenticator) — then
// sees the recovery codes once and is in. The passkey person then signs in with the passkey.
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { checkScreen, closePage, enrolmentLink, expectVisible, openConsole, staffEmail, STAFF_PASSWORD, test } from './harness/console.ts';
import { TOTP } from 'otpauth';

const NEW_PASSWORD = 'Harbour-Lights-2026';

/** A new support agent's link, as the operator's command prints it: on the console's origin. */
async function newAgentsLink(email: string, name: string): Promise<string> {
  const link = await enrolmentLink(email, name, 'support_agent');
  expect(link.startsWith(`${inject('consoleUrl')}/console/enrol#`)).toBe(true);
  return link;
}

async function setPassword(page: Page, link: string, shots?: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('heading', { name: '1. Choose a password' }).waitFor();
  // The rules tick as one types.
  await page.getByLabel('New password').fill('short');
  await expectVisible(page.getByRole('listitem').filter({ hasText: 'at least 12 characters' }).getByText('(not met yet)'));
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Repeat the password').fill(NEW_PASSWORD);
  await expectVisible(page.getByRole('listitem').filter({ hasText: 'at least 12 characters' }).getByText('(met)'));
  if (shots) await checkScreen(page, shots);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('heading', { name: '2. Add a second factor' }).waitFor();
}

async function finishWithCodes(page: Page, shots?: string): Promise<string[]> {
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  const codes = await page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  if (shots) await checkScreen(page, shots);
  await page.getByRole('button', { name: 'I have saved them: open the console' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  return codes;
}

test('enrols with an authenticator code from the secret shown, then signs in with a recovery code', async ({ browser }) => {
  const tess = staffEmail('Tess Totp');
  const link = await newAgentsLink(tess, 'Tess Totp');
  const page = await openConsole(browser);
  await setPassword(page, link, '10-enrol-password');
  await expectVisible(page.getByRole('img', { name: 'QR code of the authenticator secret' }));
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await checkScreen(page, '11-enrol-totp');
  await page.getByLabel('Code from your authenticator app').fill(new TOTP({ secret }).generate());
  await page.getByRole('button', { name: 'Confirm code' }).click();
  const codes = await finishWithCodes(page, '12-enrol-recovery-codes');
  await expectVisible(page.getByText('Signed in as Tess Totp'));

  // Signed out, back in with a recovery code.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expectVisible(page.getByText('You are signed out.'));
  await page.getByLabel('E-mail address').fill(tess);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  // The link worked once.
  await page.goto(link);
  await expectVisible(page.getByRole('alert').getByText(/has been used/));
  await closePage(page);
});

test('enrols with a passkey instead of a code, and signs in with it', async ({ browser }) => {
  const pat = staffEmail('Pat Passkey');
  const link = await newAgentsLink(pat, 'Pat Passkey');
  const page = await openConsole(browser);
  // Chromium's virtual authenticator: a platform passkey that verifies the user at once.
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
  await setPassword(page, link);
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await finishWithCodes(page);
  await expectVisible(page.getByText('Signed in as Pat Passkey'));

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail address').fill(pat);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  await expectVisible(page.getByText('Signed in as Pat Passkey'));
  expect(STAFF_PASSWORD).not.toBe(NEW_PASSWORD);
  await closePage(page);
});
