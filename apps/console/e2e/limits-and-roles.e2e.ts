// The owner at work (issue 17, sections 1 to 3): sets Acme's daily adjustment limit of support
// agents to a small number; an agent's adjustment above what is left of it is refused in the
// dialog with the reason and posts nothing; the owner's own adjustment above the agents' limit
// asks for a fresh second factor, then posts. And the owner grants a staff member a role in a
// second client, after the step-up, and the staff list shows both roles.
// The owner, the agent and Nina are the story's own; the limit is Acme's, put back when the story
// ends, passed or failed (decision 071).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  ageSecondFactor,
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  newParticipant,
  nextTotpCode,
  openParticipant,
  restoreAcmeAfterTest,
  rewards,
  staffEmail,
  test,
} from './harness/console.ts';

const LIMIT = 600;

const balanceOf = async (page: Page) => Number((await page.getByTestId('balance').textContent())!.replace(/\D/g, ''));

/** Opens "Adjust points", fills a credit; returns the dialog (not sent). */
async function fillCredit(page: Page, points: number, text: string, note: string) {
  await page.getByRole('button', { name: 'Adjust points' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adjust points' });
  await dialog.getByLabel('Points').fill(String(points));
  await dialog.getByLabel('Text the participant reads').fill(text);
  await dialog.getByLabel('Internal note').fill(note);
  return dialog;
}

/** Passes the step-up dialog (the second factor was made old first, so it shows) with a fresh authenticator code; waits for `done`. */
async function stepUp(page: Page, secret: string, done: ReturnType<Page['getByText']>, shots?: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.waitFor();
  if (shots) await checkScreen(page, shots);
  await dialog.getByLabel('Code from your authenticator app').fill(await nextTotpCode(secret));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(done);
}

test("the agents' daily limit: an agent's adjustment above what is left is refused; the owner's passes after a step-up", async ({
  browser,
}) => {
  const nina = await newParticipant({ firstName: 'Nina', lastName: 'Newbie' });
  const NINA = `${nina.firstName} ${nina.lastName}`;
  const { page: owner, ...olivia } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  // Acme's limit is every agent's: back to what it was when the story ends, however it ends.
  const acmeBefore = await restoreAcmeAfterTest((acme) => ['--agent-daily-limit', String(acme.agentDailyAdjustmentLimit)]);
  expect(acmeBefore.agentDailyAdjustmentLimit).toBeGreaterThan(LIMIT + 100);

  await owner.getByRole('link', { name: 'Settings' }).click();
  const acme = owner.getByRole('region', { name: 'Acme Rewards' });
  await acme.getByRole('button', { name: 'Change', exact: true }).click();
  const settings = owner.getByRole('dialog', { name: 'Settings of Acme Rewards' });
  const limitField = settings.getByLabel('Support agents’ daily adjustment limit (points)');
  expect(Number(await limitField.inputValue())).toBe(acmeBefore.agentDailyAdjustmentLimit);
  await limitField.fill(String(LIMIT));
  await settings.getByLabel('Reason').fill('Tighter goodwill budget for Q4');
  await checkScreen(owner, '50-settings-dialog');
  await settings.getByRole('button', { name: 'Save' }).click();
  await settings.waitFor({ state: 'detached' });
  await expectVisible(acme.getByText('600', { exact: true }));

  // The agent (new today, nothing adjusted yet): +100 passes, then a credit within the limit but
  // above what is left of it today is refused.
  const { page: agent } = await enrolNewStaff(browser, 'Alex Agent', 'support_agent');
  await openParticipant(agent, nina.email, NINA);
  const start = await balanceOf(agent);
  const small = await fillCredit(agent, 100, 'Welcome bonus', 'Onboarding call, ticket 6001');
  await small.getByRole('button', { name: 'Post +100' }).click();
  await small.waitFor({ state: 'detached' });
  await expect.poll(() => balanceOf(agent)).toBe(start + 100);
  const big = await fillCredit(agent, LIMIT - 50, 'Goodwill for the delay', 'Delayed delivery, ticket 6002');
  await big.getByRole('button', { name: `Post +${LIMIT - 50}` }).click();
  const refusal = big.getByRole('alert');
  await expectVisible(refusal);
  expect(await refusal.textContent()).toBe(
    // The console's own words, from the refusal's params (decision 087).
    'This goes past your daily adjustment limit in this client (600 points, credits and debits together): 500 points left today. Nothing was posted.',
  );
  await checkScreen(agent, '51-adjust-over-agent-limit');
  await big.getByRole('button', { name: 'Cancel' }).click();
  await agent.reload();
  await agent.getByRole('table', { name: 'Statement' }).waitFor();
  expect(await balanceOf(agent)).toBe(start + 100);
  expect(await agent.getByRole('table', { name: 'Statement' }).getByText('Goodwill for the delay').count()).toBe(0);
  await closePage(agent);

  // The owner, above the agents' limit: a second factor passed just now, then it posts (once).
  ageSecondFactor(olivia.email);
  await openParticipant(owner, nina.email, NINA);
  const credit = await fillCredit(owner, LIMIT + 100, 'Long-service award', 'Approved by the program board, ticket 6003');
  await credit.getByRole('button', { name: `Post +${LIMIT + 100}` }).click();
  await stepUp(owner, olivia.secret, owner.getByRole('status').getByText(/^Posted \+700/), '52-step-up-adjust');
  await expect.poll(() => balanceOf(owner)).toBe(start + 100 + LIMIT + 100);
  // Once: the statement may still be redrawing after the balance.
  await expect
    .poll(() =>
      owner
        .getByRole('table', { name: 'Statement' })
        .getByRole('row', { name: /Long-service award/ })
        .count(),
    )
    .toBe(1);
  await closePage(owner);
});

test('the owner grants a staff member a role in a second client; the staff list shows both', async ({ browser }) => {
  const rita = staffEmail('Rita Roles');
  await rewards([
    'staff',
    'create',
    rita,
    '--name',
    'Rita Roles',
    '--role',
    'support_agent',
    '--client',
    'acme',
    '--reason',
    'browser test',
  ]);
  const { page: owner, ...olivia } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  await owner.getByRole('link', { name: 'Staff' }).click();
  const row = owner.getByRole('table', { name: 'Staff' }).getByRole('row', { name: new RegExp(rita.replaceAll('.', '\\.')) });
  await expectVisible(row.getByText('support agent · Acme Rewards', { exact: true }));
  await row.getByRole('button', { name: 'Edit the roles of Rita Roles' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Roles of Rita Roles' });
  expect(await dialog.getByLabel('Acme Rewards').inputValue()).toBe('support_agent');
  await dialog.getByLabel('Nimbus Miles').selectOption('auditor');
  await dialog.getByLabel('Reason').fill('Covers Nimbus audits from December');
  await checkScreen(owner, '60-staff-roles-dialog');
  // A staff change wants a second factor passed within five minutes: an older one asks again.
  ageSecondFactor(olivia.email);
  await dialog.getByRole('button', { name: 'Save roles' }).click();
  await stepUp(owner, olivia.secret, owner.getByRole('status').getByText('Roles of Rita Roles saved.'));
  await expectVisible(row.getByText('support agent · Acme Rewards, auditor · Nimbus Miles', { exact: true }));
  await checkScreen(owner, '61-staff-after-roles');
  await closePage(owner);
});
