// A support agent's other actions on a participant (issue 17, section 3), each with a reason and
// each seen where it lands: on Sam, a participant of the story's own (decision 071). End sessions
// signs his open portal tab out; a status of inactive refuses his sign-in in the portal; unlock
// clears the wrong sign-ins the limits table counted; a resent reset mail shows among his mails;
// a corrected e-mail shows on the page, and its audit entry names the field, not the address.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  checkScreen,
  closePage,
  DEMO_PASSWORD,
  enrolNewStaff,
  expectPath,
  expectVisible,
  loginForm,
  newParticipant,
  openParticipant,
  openPortal,
  signInPortal,
  test,
  type Participant,
} from './harness/console.ts';

/** Opens the action's dialog, lets `fill` set its own fields, gives the reason, checks and shoots it (`shots`) and sends it; waits for `done`. */
async function act(
  page: Page,
  action: string,
  reason: string,
  done: string,
  shots: string | null,
  fill?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>,
) {
  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: action }).click();
  const dialog = page.getByRole('dialog', { name: action });
  await dialog.waitFor();
  await fill?.(dialog);
  await dialog.getByLabel('Reason').fill(reason);
  if (shots) await checkScreen(page, shots);
  await dialog.locator('button[type=submit]').click();
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText(done));
}

/** A portal sign-in of `who` that fails: the page stays on /login with its alert. */
async function portalSignInRefused(portal: Page, who: Participant, password: string, message: RegExp): Promise<void> {
  await portal.goto('/login');
  const form = loginForm(portal);
  await form.username.fill(who.username);
  await form.password.fill(password);
  await form.submit.click();
  await expectVisible(portal.getByRole('alert').getByText(message));
  expect(new URL(portal.url()).pathname).toBe('/login');
}

test('an agent ends sessions, sets the status, unlocks, resends a mail and corrects the e-mail, each seen where it lands', async ({
  browser,
}) => {
  const sam = await newParticipant({ firstName: 'Sam', lastName: 'Spent' });
  const { page } = await enrolNewStaff(browser, 'Alex Agent', 'support_agent');
  const portal = await openPortal(browser);

  // End sessions: Sam is signed in to the portal; after the action his tab is signed out on its next request.
  await signInPortal(portal, sam.username);
  await openParticipant(page, sam.email, 'Sam Spent');
  const sessions = page.getByRole('table', { name: 'Open sessions' });
  await expect.poll(() => sessions.locator('tbody tr').filter({ hasNotText: 'No open sessions.' }).count()).toBe(1);
  await act(page, 'End sessions', 'Lost phone, ticket 5150', 'Sessions ended.', '40-end-sessions-dialog');
  await expectVisible(sessions.getByText('No open sessions.'));
  await portal.reload(); // its next request: the start-up's GET user
  await expectPath(portal, '/login');

  // Status: inactive refuses Sam's sign-in in the portal (he has never earned); active lets him in again.
  await act(page, 'Set status', 'Left the company, HR ticket 88', 'Status set to inactive.', '41-status-dialog', (dialog) =>
    dialog
      .getByLabel('Status')
      .selectOption('inactive')
      .then(() => undefined),
  );
  await expectVisible(page.getByRole('heading', { level: 1 }).getByText('inactive', { exact: true }));
  await portalSignInRefused(portal, sam, DEMO_PASSWORD, /This account is not active/);
  await act(page, 'Set status', 'Back from leave, HR ticket 89', 'Status set to active.', null, (dialog) =>
    dialog
      .getByLabel('Status')
      .selectOption('active')
      .then(() => undefined),
  );
  await expectVisible(page.getByRole('heading', { level: 1 }).getByText('active', { exact: true }));

  // Unlock: three wrong passwords count in the limits table; unlock clears them.
  for (let i = 0; i < 3; i++) await portalSignInRefused(portal, sam, `wrong password ${i}`, /don't match our records/);
  await page.reload();
  const limits = page.getByRole('table', { name: 'Attempt limits' });
  const signIns = limits.getByRole('row', { name: /^Sign-in\b(?!, per day)/ });
  const signInsPerDay = limits.getByRole('row', { name: /^Sign-in, per day/ });
  await expectVisible(signIns.getByRole('cell', { name: '3 / 5', exact: true }));
  await expectVisible(signInsPerDay.getByRole('cell', { name: '3 / 20', exact: true }));
  await checkScreen(page, '43-limits-counted');
  await act(page, 'Unlock', 'Forgot his password, ticket 5151', 'Unlocked.', '44-unlock-dialog');
  await expectVisible(signIns.getByRole('cell', { name: '0 / 5', exact: true }));
  await expectVisible(signInsPerDay.getByRole('cell', { name: '0 / 20', exact: true }));
  await signInPortal(portal, sam.username);
  await closePage(portal);

  // Resend mail: a password reset, queued, in the page's mails.
  const mails = page.getByRole('table', { name: 'Mails' });
  const resets = mails.getByRole('row', { name: /resetPassword/ });
  const before = await resets.count();
  await act(
    page,
    'Resend mail',
    'Asked for a new reset link, ticket 5152',
    `Queued for ${sam.email}.`,
    '45-resend-dialog',
    async (dialog) => {
      await dialog.getByLabel('Mail').selectOption('passwordReset');
    },
  );
  await expect.poll(() => resets.count()).toBe(before + 1);

  // Correct details: the new e-mail shows; the audit entry names the field, never the address.
  const workAddress = `${sam.username}@acme.example`;
  await act(page, 'Correct details', 'New work address, ticket 5153', 'Details corrected.', '46-details-dialog', (dialog) =>
    dialog.getByLabel('E-mail').fill(workAddress),
  );
  await expectVisible(page.getByRole('region', { name: 'Identity' }).getByText(workAddress));
  const audit = page.getByRole('table', { name: 'Audit entries' });
  const entry = audit.getByRole('row', { name: /New work address, ticket 5153/ });
  await expectVisible(entry);
  await expectVisible(entry.getByText(/email/));
  expect(await audit.getByText(workAddress).count()).toBe(0);
  await checkScreen(page, '47-participant-after-actions');
  await closePage(page);
});
