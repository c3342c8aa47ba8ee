// Points that expire, set in the console (issue 19, decision 062): a program manager, enrolled
// just now, opens the client settings, sets a rolling 12-month policy in Paris time with a reason
// and sees it saved, in words; the operator's command shows the same; a support agent reads it
// without a way to change it.
import { TOTP } from 'otpauth';
import { expect } from 'vitest';
import { checkScreen, closePage, expectVisible, openConsole, openConsoleAs, rewards, STAFF_PASSWORD, test } from './harness/console.ts';

const PAT = { email: 'pat.manager@acme.example', name: 'Pat Manager' };
const SAVED_WORDS = 'Points expire 12 months after they are earned, at the end of the day, Europe/Paris';

test('a program manager sets a rolling 12-month policy and sees it saved; an agent reads it only', async ({ browser }) => {
  const created = await rewards([
    'staff',
    'create',
    PAT.email,
    '--name',
    PAT.name,
    '--role',
    'program_manager',
    '--client',
    'acme',
    '--reason',
    'browser test',
  ]);
  const link = /https?:\/\/\S+\/console\/enrol#\S+/.exec(created)?.[0];
  expect(link, created).toBeDefined();

  // Enrolment: a password, then an authenticator code, then in.
  const page = await openConsole(browser);
  await page.goto(link!);
  await page.getByLabel('New password').fill(STAFF_PASSWORD);
  await page.getByLabel('Repeat the password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
  await page.getByLabel('Code from your authenticator app').fill(new TOTP({ secret }).generate());
  await page.getByRole('button', { name: 'Confirm code' }).click();
  await page.getByRole('button', { name: 'I have saved them: open the console' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Client settings' }).waitFor();
  const acme = page.getByRole('region', { name: 'Acme Rewards' });
  const expiry = acme.getByRole('region', { name: 'Points expiry' });
  await expectVisible(expiry.getByText('When points expire'));
  await expiry.getByRole('button', { name: 'Change points expiry' }).click();

  const dialog = page.getByRole('dialog', { name: 'Points expiry of Acme Rewards' });
  await dialog.getByLabel('When points expire').selectOption({ label: 'A number of months after they are earned' });
  await dialog.getByLabel('Months').fill('12');
  await dialog.getByLabel('Time zone').fill('Europe/Paris');
  // The days in the wrong order: said at once, and Save stays off.
  await dialog.getByLabel('Reminder (days before)').fill('5');
  await dialog.getByLabel('Last chance (days before)').fill('7');
  await dialog.getByLabel('Reason').fill('Program board: points expire after a year from January');
  await expectVisible(dialog.getByText('The reminder must go out more days before an expiry than the last chance.'));
  expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  await dialog.getByLabel('Reminder (days before)').fill('30');
  await expectVisible(dialog.getByText(SAVED_WORDS));
  await checkScreen(page, '70-expiry-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });

  await expectVisible(expiry.getByRole('status').getByText('Points expiry saved.'));
  await expectVisible(expiry.getByText(SAVED_WORDS));
  await expectVisible(expiry.getByText('A reminder 30 days before, a last chance 7 days before'));
  await checkScreen(page, '71-expiry-saved');

  // The operator sees what the console saved, and the audit trail names who and why.
  const shown = JSON.parse(await rewards(['clients', 'show', '--client', 'acme', '--json'])) as {
    expiry: { expiry: string; timeZone: string };
  };
  expect(shown.expiry).toMatchObject({ expiry: 'rolling:12', timeZone: 'Europe/Paris' });
  const [audit] = JSON.parse(await rewards(['audit', '--client', 'acme', '--action', 'clients.settings', '--json'])) as Array<{
    actor: string;
    details: Record<string, unknown>;
  }>;
  expect(audit).toMatchObject({
    actor: PAT.email,
    details: { expiryPolicy: { to: { type: 'rolling', months: 12 } }, reason: 'Program board: points expire after a year from January' },
  });
  await closePage(page);

  // A support agent reads the same, with no way to change it.
  const agent = await openConsoleAs(browser, 'agent');
  await agent.getByRole('link', { name: 'Settings' }).click();
  const agentsAcme = agent.getByRole('region', { name: 'Acme Rewards' });
  await expectVisible(agentsAcme.getByText(SAVED_WORDS));
  await expectVisible(agentsAcme.getByText('Your role here is read-only.'));
  expect(await agent.getByRole('button', { name: /Change/ }).count()).toBe(0);
  await checkScreen(agent, '72-expiry-agent-read-only');
  await closePage(agent);

  await rewards(['clients', 'update', '--client', 'acme', '--expiry', 'none', '--time-zone', 'UTC']);
});
