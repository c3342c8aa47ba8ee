// Programs → Earning rules in the browser (issue 32 §2, decision 096): a program manager, enrolled
// just now, writes a rule with the form (a typo in the amount is shown next to its field before
// anything is sent), creates it with a reason, sees it listed with its budget, tries a purchase and
// sees what the rule earns and why; then edits the rule as JSON (a wrong value is shown with its
// place in the JSON), saves version 2, and disables it with a reason; the versions list who, when
// and why. A support agent sees the list and the rule, tries an event, and has no button that
// changes anything. The rule's name is the story's own (decision 071). Screenshots at 1280 and 768
// px into /tmp/shots-rules/ when the run writes them.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkScreen, closePage, enrolNewStaff, expectVisible, test, unique } from './harness/console.ts';

const SHOTS = '/tmp/shots-rules';

async function openRules(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Programs' }).click();
  await page.getByRole('heading', { name: 'Earning rules', level: 1 }).waitFor();
  const chooser = page.getByLabel('Client', { exact: true });
  if ((await chooser.count()) > 0) await chooser.selectOption('acme');
}

test('a program manager creates a rule with the form, tries an event, edits it as JSON and disables it; a support agent only reads and tries', async ({
  browser,
}) => {
  const run = unique();
  const NAME = `Store purchases ${run}`;
  const { page } = await enrolNewStaff(browser, 'Petra Rules', 'program_manager');
  try {
    await openRules(page);
    await checkScreen(page, '01-rules-list-empty', SHOTS);
    await page.getByRole('link', { name: 'New rule' }).click();
    await page.getByRole('heading', { name: 'New earning rule', level: 1 }).waitFor();

    // The form: 2 points per 1.00, a budget; a typo in the amount is shown next to its field, and nothing can be sent.
    await page.getByLabel('Name', { exact: true }).fill(NAME);
    await page.getByLabel('Points', { exact: true }).fill('2');
    await page.getByLabel('Per amount', { exact: true }).fill('1,00');
    await expectVisible(page.getByText('an amount is a decimal string such as "10.00"', { exact: false }));
    expect(await page.getByRole('button', { name: 'Create the rule' }).isDisabled()).toBe(true);
    await page.getByLabel('Per amount', { exact: true }).fill('1.00');
    await page.getByRole('button', { name: 'Add an attribute condition' }).click();
    await page.getByLabel('Attribute of condition 1').fill('category');
    await page.getByLabel('Values of condition 1').fill('shoes');
    await page.getByLabel('Budget (points in all)').fill('1000');
    await page.getByLabel('Shown to participants (en-US)').fill('2 points per euro in store');
    await expectVisible(page.getByText('The rule is valid.'));
    await checkScreen(page, '02-rules-form', SHOTS);

    await page.getByRole('button', { name: 'Create the rule' }).click();
    const create = page.getByRole('dialog', { name: 'Create the rule' });
    await create.getByLabel('Reason').fill('Store launch, ticket 3201');
    await create.getByRole('button', { name: 'Create the rule' }).click();
    await page.getByRole('heading', { name: NAME, level: 1 }).waitFor();
    await expectVisible(page.getByText('0 of 1,000 used, 1,000 left'));

    // Listed, with what it earns, its state and its budget.
    await page.getByRole('link', { name: 'Earning rules' }).click();
    const row = page.getByRole('row').filter({ hasText: NAME });
    await expectVisible(row.getByText('2 points per 1.00 (rounded down)'));
    await expectVisible(row.getByText('Enabled'));
    await expectVisible(row.getByText('0 of 1,000 used, 1,000 left'));

    // Try it: 120.50 earns 241 by this rule, computed on the server, nothing written.
    const tryIt = page.getByRole('region', { name: 'Try it' });
    await tryIt.getByLabel('Amount').fill('120.50');
    await tryIt.getByLabel('Attributes').fill('category=shoes');
    // An unknown participant is said so, by name.
    await tryIt.getByLabel('Username (optional)').fill(`nobody-${run}`);
    await tryIt.getByRole('button', { name: 'Try it' }).click();
    await expectVisible(tryIt.getByText(`No participant nobody-${run} in this client.`));
    await tryIt.getByLabel('Username (optional)').fill('');
    await tryIt.getByRole('button', { name: 'Try it' }).click();
    const line = tryIt.getByRole('row').filter({ hasText: NAME });
    await expectVisible(line.getByText('241', { exact: true }));
    await expectVisible(line.getByText(/2 points per 1\.00 of 120\.50/));
    await expectVisible(line.getByText('✓', { exact: false }));
    await expectVisible(tryIt.getByText(/^Would earn [\d,]+ points\./));
    await checkScreen(page, '03-rules-try-it', SHOTS);
    await expectVisible(row.getByText('0 of 1,000 used, 1,000 left'));

    // Edited as JSON: a wrong value is shown with its place, then version 2 with a condition and 3 points per 1.00.
    await row.getByRole('link', { name: NAME }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: `Edit ${NAME}`, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'JSON' }).click();
    const json = page.getByLabel('The rule as JSON');
    const rule = JSON.parse(await json.inputValue()) as Record<string, unknown>;
    await json.fill(JSON.stringify({ ...rule, stacking: 'sometimes' }, null, 2));
    const problems = page.getByRole('list', { name: 'Problems of the rule' });
    await expectVisible(problems.getByText('stacking', { exact: true }));
    await expectVisible(problems.getByText('stacking is add or best'));
    await json.fill(
      JSON.stringify(
        { ...rule, conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }], earn: { pointsPer: 3, per: '1.00', rounding: 'down' } },
        null,
        2,
      ),
    );
    await expectVisible(page.getByText('The rule is valid.'));
    await checkScreen(page, '04-rules-json', SHOTS);
    // The form shows what the JSON says.
    await page.getByRole('button', { name: 'Form' }).click();
    expect(await page.getByLabel('Points', { exact: true }).inputValue()).toBe('3');
    expect(await page.getByLabel('Values of condition 1').inputValue()).toBe('shoes, bags');
    await page.getByRole('button', { name: 'Save a new version' }).click();
    const save = page.getByRole('dialog', { name: 'Save a new version' });
    await save.getByLabel('Reason').fill('Shoes and bags only, 3 per euro');
    await save.getByRole('button', { name: 'Save a new version' }).click();
    await page.getByRole('heading', { name: NAME, level: 1 }).waitFor();
    await expectVisible(page.getByText(/^Version 2, from /));
    await expectVisible(page.getByText('3 points per 1.00 (rounded down)').first());

    // Disabled with a reason: version 3; the versions say who, when and why.
    await page.getByRole('button', { name: 'Disable' }).click();
    const disable = page.getByRole('dialog', { name: `Disable ${NAME}` });
    await disable.getByLabel('Reason').fill('Campaign over');
    await checkScreen(page, '05-rules-disable', SHOTS);
    await disable.getByRole('button', { name: 'Disable' }).click();
    await disable.waitFor({ state: 'detached' });
    await expectVisible(page.getByRole('status').getByText(`${NAME} is disabled (version 3).`));
    const history = page.getByRole('table', { name: `Versions of ${NAME}, newest first` });
    await expectVisible(history.getByRole('row').filter({ hasText: 'Campaign over' }).getByText('Disabled'));
    await expectVisible(history.getByRole('row').filter({ hasText: 'Shoes and bags only, 3 per euro' }).getByText('conditions, earn'));
    await expectVisible(history.getByRole('row').filter({ hasText: 'Store launch, ticket 3201' }).getByText('created'));
    await checkScreen(page, '06-rules-page', SHOTS);
  } finally {
    await closePage(page);
  }

  // A support agent of Acme: reads and tries, changes nothing.
  const { page: agent } = await enrolNewStaff(browser, 'Sam Rules', 'support_agent');
  try {
    await openRules(agent);
    const row = agent.getByRole('row').filter({ hasText: NAME });
    await expectVisible(row.getByText('Disabled'));
    expect(await agent.getByRole('link', { name: 'New rule' }).count()).toBe(0);
    const tryIt = agent.getByRole('region', { name: 'Try it' });
    await tryIt.getByLabel('Amount').fill('10.00');
    await tryIt.getByRole('button', { name: 'Try it' }).click();
    await expectVisible(tryIt.getByText(/^Would earn [\d,]+ points\./));
    // The disabled rule is not in force: it has no line.
    expect(await tryIt.getByRole('row').filter({ hasText: NAME }).count()).toBe(0);
    await checkScreen(agent, '07-rules-agent', SHOTS);
    await row.getByRole('link', { name: NAME }).click();
    await agent.getByRole('heading', { name: NAME, level: 1 }).waitFor();
    expect(await agent.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await agent.getByRole('button', { name: /^(Enable|Disable)$/ }).count()).toBe(0);
  } finally {
    await closePage(agent);
  }
});
