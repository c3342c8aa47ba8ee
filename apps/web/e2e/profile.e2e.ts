// The profile modal: a participant changes their password and their language, then puts both back.
// Each story's participant is its own (decision 071): what it changes is nobody else's.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  newParticipant,
  signIn,
  signOutControl,
  test,
} from '../../../test-support/e2e/browser.ts';

const NEW_PASSWORD = 'Garden-Path-42';

async function openProfile(page: Page) {
  await page
    .getByRole('banner')
    .getByRole('link', { name: /profile|profil|الملف/i })
    .click();
  await expectPath(page, '/profile');
  const dialog = page.getByRole('dialog');
  await expectVisible(dialog.getByRole('heading', { level: 1 }));
  return dialog;
}

async function changePasswordInModal(dialog: Locator, from: string, to: string) {
  await dialog.getByLabel('Current password', { exact: true }).fill(from);
  await dialog.getByLabel('New password', { exact: true }).fill(to);
  await dialog.getByLabel('Confirm new password', { exact: true }).fill(to);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expectVisible(dialog.getByText('Your password has been changed.'));
  return dialog;
}

test('a participant changes the password in the profile, signs in with it, and changes it back', async ({ page }) => {
  const { username } = await newParticipant();
  await signIn(page, username);
  const dialog = await openProfile(page);
  await expectVisible(dialog.getByText('Your details'));

  // The rules tick as the new password is typed.
  const newPassword = dialog.getByLabel('New password', { exact: true });
  await newPassword.fill('garden');
  await expectVisible(dialog.locator('[data-rule="lower"][data-met="true"]'));
  await expectVisible(dialog.locator('[data-rule="upper"][data-met="false"]'));
  await expectNoSeriousA11yViolations(page);
  await newPassword.fill('');

  await changePasswordInModal(dialog, DEMO_PASSWORD, NEW_PASSWORD);
  for (const label of ['Current password', 'New password', 'Confirm new password']) {
    expect(await dialog.getByLabel(label, { exact: true }).inputValue()).toBe('');
  }
  await expectNoSeriousA11yViolations(page);

  await dialog.getByRole('button', { name: /close/i }).click();
  await expectPath(page, '/home');
  await signOutControl(page).click();
  await expectPath(page, '/login');
  await signIn(page, username, NEW_PASSWORD);

  await changePasswordInModal(await openProfile(page), NEW_PASSWORD, DEMO_PASSWORD);
  await page.getByRole('dialog').getByRole('button', { name: /close/i }).click();
  await signOutControl(page).click();
  await expectPath(page, '/login');
  await signIn(page, username, DEMO_PASSWORD);
});

test('a participant switches the portal to French in the profile, and back', async ({ page }) => {
  const { username } = await newParticipant();
  await signIn(page, username);
  let dialog = await openProfile(page);
  await dialog.getByRole('radio', { name: 'Français' }).check();
  await dialog.getByRole('button', { name: 'Save language' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'fr-FR');
  await expectVisible(dialog.getByText('Votre choix de langue a été enregistré.'));
  await expectVisible(dialog.getByRole('heading', { level: 1, name: 'Votre profil' }));
  expect(await page.locator('html').getAttribute('dir')).toBe('ltr');

  // Saved on the account: a new sign-in comes back in French.
  await dialog.getByRole('button', { name: /fermer|close/i }).click();
  await page
    .getByRole('banner')
    .getByRole('button', { name: 'Se déconnecter' })
    .or(page.getByRole('banner').getByRole('link', { name: 'Se déconnecter' }))
    .first()
    .click();
  await expectPath(page, '/login');
  await signIn(page, username);
  await page.waitForFunction(() => document.documentElement.lang === 'fr-FR');

  dialog = await openProfile(page);
  await dialog.getByRole('radio', { name: 'English' }).check();
  await dialog.getByRole('button', { name: 'Enregistrer la langue' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'en-US');
  await expectVisible(dialog.getByText('Your language has been saved.'));
});
