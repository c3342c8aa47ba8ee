// Staff sign-in through the installation's OpenID provider (issue 20 §6, decision 068), in Chromium:
// a real provider (oidc-provider, started here) and a server of its own configured for it (the
// STAFF_OIDC_* settings are read at start, so the shared server of the other files cannot have
// them). The demo owner signs in at the provider with a second factor (amr otp) and is in; the demo
// agent signs in there without one and passes our authenticator code; a stranger is refused. The
// owner's step-up for a staff change goes through the provider too (decision 068, amended).
// Shared on purpose (decision 071): the demo owner and agent are the provider's accounts, fixed when
// the file's server starts; each story signs in afresh, and whom a story invites or disables is its own.
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestProvider, type TestProvider } from '../../server/test/oidc-provider.ts';
import { startPortalServer, type PortalServer } from '../../../test-support/e2e/server.ts';
import { rewardsCli } from '../../../test-support/e2e/operator.ts';
import { openPageOn } from '../../../test-support/e2e/browser.ts';
import { checkScreen, closePage, DEMO_STAFF, expectVisible, nextTotpCode, staffEmail, test } from './harness/console.ts';

const PROVIDER_NAME = 'Rewards Staff ID';
let provider: TestProvider;
let server: PortalServer;
let consoleUrl: string;

beforeAll(async () => {
  // The console's callback names the server's port, chosen when it starts: the provider takes
  // its redirect URI then (it is made at its first request).
  const redirectUris: string[] = [];
  provider = await startTestProvider({
    redirectUris,
    accounts: {
      olivia: { email: DEMO_STAFF.owner.email, email_verified: true, name: 'Olivia Owner' },
      alex: { email: DEMO_STAFF.agent.email, email_verified: true, name: 'Alex Agent' },
      stranger: { email: 'stranger@acme.example', email_verified: true },
    },
    authentication: { olivia: { amr: ['pwd', 'otp'] }, alex: { amr: ['pwd'] } },
  });
  server = await startPortalServer((port) => {
    consoleUrl = `http://console.localhost:${port}`;
    redirectUris.push(`${consoleUrl}/api/console/v1/sign-in/oidc/callback`);
    return {
      CONSOLE_ORIGIN: consoleUrl,
      STAFF_OIDC_ISSUER: provider.issuer,
      STAFF_OIDC_CLIENT_ID: provider.clientId,
      STAFF_OIDC_CLIENT_SECRET: provider.clientSecret,
      STAFF_OIDC_NAME: PROVIDER_NAME,
    };
  });
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

/** What a person does on the provider's own (development) login page. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever-the-provider-accepts');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

async function providerButton(page: Page) {
  await page.goto('/console/sign-in');
  const button = page.getByRole('link', { name: `Sign in with ${PROVIDER_NAME}` });
  await expectVisible(button);
  return button;
}

test('the owner signs in at the provider with its second factor and is in the console', async ({ browser }) => {
  const page = await openPageOn(browser, consoleUrl);
  const button = await providerButton(page);
  // The password form stays beside it.
  await expectVisible(page.getByLabel('E-mail address'));
  await checkScreen(page, '80-staff-oidc-sign-in');
  await button.click();
  await signInAtProvider(page, 'olivia');
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  await expectVisible(page.getByText('Olivia Owner').first());
  await closePage(page);
});

test('the agent signs in at the provider without a second factor, then passes the authenticator code here', async ({ browser }) => {
  const page = await openPageOn(browser, consoleUrl);
  await (await providerButton(page)).click();
  await signInAtProvider(page, 'alex');
  await expectVisible(page.getByText('It did not report a second factor: confirm it is you here.'));
  const code = page.getByLabel('Code from your authenticator app');
  await expectVisible(code);
  await checkScreen(page, '81-staff-oidc-second-factor');
  await code.fill(await nextTotpCode(DEMO_STAFF.agent.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  expect(await page.getByRole('alert').count()).toBe(0);
  await closePage(page);
});

test('someone without a staff account is refused with a clear message', async ({ browser }) => {
  const page = await openPageOn(browser, consoleUrl);
  await (await providerButton(page)).click();
  await signInAtProvider(page, 'stranger');
  await expectVisible(page.getByRole('alert').filter({ hasText: 'no staff account here has that e-mail address' }));
  await checkScreen(page, '82-staff-oidc-refused');
  await closePage(page);
});

/**
 * Makes the owner's second factor six minutes old on this file's own server (the harness's
 * ageSecondFactor knows only the shared one): the next staff change asks for the step-up.
 */
function ageOwnersSecondFactor(): void {
  const db = new DatabaseSync(server.databaseUrl.replace(/^file:/, ''));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const result = db
      .prepare(
        'UPDATE staff_sessions SET second_factor_at = ? WHERE second_factor_at IS NOT NULL AND staff_id = (SELECT id FROM staff WHERE email = ?)',
      )
      .run(new Date(Date.now() - 6 * 60_000).toISOString(), DEMO_STAFF.owner.email);
    expect(Number(result.changes)).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}

/** The owner signed in at the provider, on the staff page, their second factor six minutes old: a staff change asks for a step-up. */
async function ownerOnStaffPageWithAgedFactor(browser: Browser): Promise<Page> {
  const page = await openPageOn(browser, consoleUrl);
  await (await providerButton(page)).click();
  await signInAtProvider(page, 'olivia');
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  ageOwnersSecondFactor();
  await page.getByRole('link', { name: 'Staff' }).click();
  return page;
}

test("the owner's step-up for a staff change: signs in again at the provider, comes back to the page, presses again", async ({
  browser,
}) => {
  const page = await ownerOnStaffPageWithAgedFactor(browser);
  const invited = staffEmail('Stella Stepped');
  const invite = async () => {
    await page.getByRole('button', { name: 'Invite staff' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite staff' });
    await dialog.getByLabel('E-mail').fill(invited);
    await dialog.getByLabel('Name').fill('Stella Stepped');
    await dialog.getByLabel('Acme Rewards').selectOption('support_agent');
    await dialog.getByLabel('Reason').fill('New hire, ticket HR-20');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
  };
  await invite();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const again = stepUp.getByRole('link', { name: `Sign in again at ${PROVIDER_NAME}` });
  await expectVisible(again);
  // Beside our own factors, and saying that the invitation is not sent on its own.
  await expectVisible(stepUp.getByLabel('Code from your authenticator app'));
  await expectVisible(stepUp.getByText(/is not sent on its own: press its button again/));
  await checkScreen(page, '83-staff-oidc-step-up');

  await again.click();
  // The provider authenticates again (prompt=login), whatever session it has.
  await signInAtProvider(page, 'olivia');
  const back = page.getByRole('dialog', { name: 'Confirmed' });
  await expectVisible(back.getByText(`You signed in again at ${PROVIDER_NAME}: your second factor is fresh for five minutes.`));
  // Back on the page it came from, the outcome said once and gone from the address.
  expect(new URL(page.url()).pathname).toBe('/console/staff');
  expect(new URL(page.url()).searchParams.has('stepUp')).toBe(false);
  await checkScreen(page, '84-staff-oidc-step-up-passed');
  await back.getByRole('button', { name: 'Continue' }).click();

  // Nothing was sent meanwhile; pressed again, it goes through with no second asking.
  expect(await page.getByRole('table', { name: 'Staff' }).getByText(invited).count()).toBe(0);
  await invite();
  await expectVisible(page.getByRole('status').getByText(`Invitation sent to ${invited}.`));
  expect(await page.getByRole('dialog', { name: 'Confirm it is you' }).count()).toBe(0);
  await closePage(page);
});

test("someone else's sign-in at the provider does not step the owner up: the console says so, and the code remains the way", async ({
  browser,
}) => {
  const dora = staffEmail('Dora Departing');
  await rewardsCli(server.databaseUrl, [
    'staff',
    'create',
    dora,
    '--name',
    'Dora Departing',
    '--role',
    'auditor',
    '--client',
    'acme',
    '--reason',
    'browser test',
  ]);
  const page = await ownerOnStaffPageWithAgedFactor(browser);
  const row = page.getByRole('row', { name: new RegExp(dora.replaceAll('.', '\\.')) });
  const disable = async () => {
    await row.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: /^Disable/ });
    await dialog.getByLabel('Reason').fill('Left the company, ticket HR-21');
    await dialog.getByRole('button', { name: 'Disable' }).click();
  };
  await disable();
  await page
    .getByRole('dialog', { name: 'Confirm it is you' })
    .getByRole('link', { name: `Sign in again at ${PROVIDER_NAME}` })
    .click();
  // The agent signs in at the provider in the owner's browser.
  await signInAtProvider(page, 'alex');
  const back = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expectVisible(
    back.getByRole('alert').filter({ hasText: `${PROVIDER_NAME} signed in someone other than you, so nothing changed here.` }),
  );
  expect(new URL(page.url()).pathname).toBe('/console/staff');
  await checkScreen(page, '85-staff-oidc-step-up-other-person');
  // Our code still steps the owner up; then the disable, pressed again, goes through.
  await back.getByLabel('Code from your authenticator app').fill(await nextTotpCode(DEMO_STAFF.owner.secret));
  await back.getByRole('button', { name: 'Confirm' }).click();
  await back.waitFor({ state: 'detached' });
  await disable();
  await expectVisible(row.getByText('disabled', { exact: true }));
  await closePage(page);
});
