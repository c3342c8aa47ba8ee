// Points that expire, set in the console (issue 19, decision 062): a program manager, enrolled
// just now, opens the client settings, sets a rolling 12-month policy in Paris time with a reason
// and sees it saved, in words; the operator's command shows the same; a support agent reads it
// without a way to change it. The staff are the story's own; Acme's policy is put back when the
// story ends, passed or failed (decision 071).
import { expect } from 'vitest';
import { checkScreen, closePage, enrolNewStaff, expectVisible, restoreAcmeAfterTest, rewards, test } from './harness/console.ts';

const SAVED_WORDS = 'Points expire 12 months after they are earned, at the end of the day, Europe/Paris';

test('a program manager sets a rolling 12-month policy and sees it saved; an agent reads it only', async ({ browser }) => {
  const { page, ...pat } = await enrolNewStaff(browser, 'Pat Manager');
  await restoreAcmeAfterTest(({ expiry }) => [
    '--expiry',
    expiry.expiry,
    '--time-zone',
    expiry.timeZone,
    '--expiry-reminder-days',
    String(expiry.reminderDays),
    '--expiry-last-chance-days',
    String(expiry.lastChanceDays),
  ]);

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
  const audit = JSON.parse(await rewards(['audit', '--client', 'acme', '--action', 'clients.settings', '--json'])) as Array<{
    actor: string;
    details: Record<string, unknown>;
  }>;
  expect(audit.find((entry) => entry.actor === pat.email)).toMatchObject({
    details: { expiryPolicy: { to: { type: 'rolling', months: 12 } }, reason: 'Program board: points expire after a year from January' },
  });
  await closePage(page);

  // A support agent reads the same, with no way to change it.
  const { page: agent } = await enrolNewStaff(browser, 'Alex Agent', 'support_agent');
  await agent.getByRole('link', { name: 'Settings' }).click();
  const agentsAcme = agent.getByRole('region', { name: 'Acme Rewards' });
  await expectVisible(agentsAcme.getByText(SAVED_WORDS));
  await expectVisible(agentsAcme.getByText('Your role here is read-only.'));
  expect(await agent.getByRole('button', { name: /Change/ }).count()).toBe(0);
  await checkScreen(agent, '72-expiry-agent-read-only');
  await closePage(agent);
});
