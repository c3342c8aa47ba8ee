// The account lifecycle of issue 7 in a real browser against the real server: activation, a
// forgotten user id, a forgotten password. Each story's participant is its own (decision 071), so
// activating one or resetting a password changes nobody another story signs in as. Mails are read
// from the server's outbox (the e2e server has no SMTP_URL) through the operator CLI, by address.
import { describe, expect, inject } from 'vitest';
import type { OutboxEntry } from '../../server/src/modules/mail/listing.ts';
import { rewardsCli } from '../../../test-support/e2e/operator.ts';
import {
  closePage,
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  loginForm,
  newParticipant,
  openPageOn,
  signIn,
  test,
} from '../../../test-support/e2e/browser.ts';

/** One mail as the operator CLI's `outbox --json` prints it. */
type OutboxMail = OutboxEntry;

const NEW_PASSWORD = 'Garden-Path-42';

/**
 * The newest mail of a template to an address, waiting (15 s at most) for the server's delivery
 * worker, in its own process, to write it: nothing tells this process when, so the outbox is read
 * again, each read the command run in this process (a few milliseconds, no process started).
 */
async function latestMail(to: string, template: string): Promise<OutboxMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = JSON.parse(await rewardsCli(inject('databaseUrl'), ['outbox', '--json'])) as OutboxMail[];
    const mail = mails.find((m) => m.to === to && m.template === template);
    if (mail) return mail;
    if (Date.now() > deadline)
      throw new Error(`No ${template} mail to ${to} in the outbox: ${mails.map((m) => `${m.template}→${m.to}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The reset link of a mail, on this test server (the mail names the client's own origin). */
function resetPathOf(mail: OutboxMail): string {
  const link = mail.links.find((l) => l.includes('/reset-password?passwordGuid='));
  expect(link, `a reset link in ${JSON.stringify(mail.links)}`).toBeDefined();
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

describe('the account pages, as anyone can open them', () => {
  test('each page is reachable from the login page and free of serious axe violations', async ({ page }) => {
    await page.goto('/login');
    for (const [name, path, heading] of [
      [/forgot your user id/i, '/forgot-user-id', /forgot your user id/i],
      [/forgot your password/i, '/forgot-password', /forgot your password/i],
      [/activate your account/i, '/activation', /activate your account/i],
    ] as const) {
      await page.goto('/login');
      await page.getByRole('main').getByRole('link', { name }).last().click();
      await expectPath(page, path);
      await expectVisible(page.getByRole('heading', { level: 1, name: heading }));
      await expectNoSeriousA11yViolations(page);
    }
  });

  test('the activation page asks for the demo fields and checks them before sending', async ({ page }) => {
    await page.goto('/activation');
    await expectVisible(page.getByLabel('Account number'));
    await expectVisible(page.getByLabel('Last name'));
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await expectVisible(page.getByText('Fill in this field.'));
    expect(await page.getByLabel('Account number').evaluate((el) => el === document.activeElement)).toBe(true);
    await expectNoSeriousA11yViolations(page);
  });

  test('a reset link without its guid shows the dead-link state, with a way to a new link', async ({ page }) => {
    await page.goto('/reset-password');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'This link no longer works' }));
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await expectPath(page, '/forgot-password');
  });

  test('the reset page takes the guid out of the address bar and asks for no Referer', async ({ page }) => {
    await page.goto('/reset-password?passwordGuid=q8Yk3vWm2NcZ0pLrT5sXa7bHd9eFg1jK4uQo6iRyVwE');
    await expectVisible(page.getByLabel('New password', { exact: true }));
    await page.waitForURL((url) => url.pathname === '/reset-password' && url.search === '');
    expect(await page.locator('meta[name="referrer"]').getAttribute('content')).toBe('no-referrer');
    await expectNoSeriousA11yViolations(page);
  });
});

// These need the account server and the mail outbox (issue 7's server and mail branches).
describe('the account flows against the real server', () => {
  test('a pending participant activates with account number and last name and lands on home, signed in', async ({ page, browser }) => {
    const pat = await newParticipant({ firstName: 'Pat', lastName: 'Pending', status: 'pending' });
    await page.goto('/activation');
    await page.getByLabel('Account number').fill(pat.accountNumber);
    await page.getByLabel('Last name').fill(pat.lastName);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('checkbox', { name: /accept the privacy policy/i }).check();
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await expectPath(page, '/home');
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('userState'))) ?? 'null')).toMatchObject({
      userName: pat.username,
    });

    // The new password now signs Pat in, without the pre-activation warning.
    const again = await openPageOn(browser, inject('baseUrl'));
    await signIn(again, pat.username, NEW_PASSWORD);
    await closePage(again);
  });

  test('forgot user id: the mail names the username', async ({ page }) => {
    const nina = await newParticipant({ firstName: 'Nina' });
    await page.goto('/forgot-user-id');
    await page.getByLabel('Email address').fill(nina.email);
    await page.getByRole('button', { name: 'Email my user ID' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: 'If the email address matches an account' }));
    const mail = await latestMail(nina.email, 'forgotUsername');
    expect(mail.text).toContain(nina.username);
  });

  test('forgot password → the mail → the link → a new password signs in, the old one fails, the link is spent', async ({
    page,
    browser,
  }) => {
    const dana = await newParticipant({ firstName: 'Dana' });
    await page.goto('/forgot-password');
    await page.getByLabel('User ID').fill(dana.username);
    await page.getByLabel('Email address').fill(dana.email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: 'If the details match an account' }));

    const resetPath = resetPathOf(await latestMail(dana.email, 'resetPassword'));
    await page.goto(resetPath);
    await expectVisible(page.getByLabel('New password', { exact: true }));
    await page.waitForURL((url) => url.search === '');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: 'Your password has been changed' }));
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expectPath(page, '/login');

    // The old password fails…
    const form = loginForm(page);
    await form.username.fill(dana.username);
    await form.password.fill(DEMO_PASSWORD);
    await form.submit.click();
    await expectVisible(page.getByRole('alert'));
    await expectPath(page, '/login');
    // …and the new one works.
    await form.password.fill(NEW_PASSWORD);
    await form.submit.click();
    await expectPath(page, '/home');

    // The same link a second time, in another browser: the dead-link state, with a way to a new one.
    const reuse = await openPageOn(browser, inject('baseUrl'));
    await reuse.goto(resetPath);
    await reuse.getByLabel('New password', { exact: true }).fill('Another-Path-43');
    await reuse.getByLabel('Confirm new password', { exact: true }).fill('Another-Path-43');
    await reuse.getByRole('button', { name: 'Save new password' }).click();
    await expectVisible(reuse.getByRole('heading', { level: 1, name: 'This link no longer works' }));
    await expectVisible(reuse.getByRole('link', { name: 'Ask for a new link' }));
    await closePage(reuse);
  });
});
