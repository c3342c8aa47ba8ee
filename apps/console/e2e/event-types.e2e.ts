// Programs → Earning rules → Event types in the browser (issue 32 §1, decision 100): a program
// manager, enrolled just now, sees purchase and return built in; a name that is not lower-case
// dotted words is said so before anything is sent; declares the story's own type with what it
// means, sees it listed as declared by them and offered in Try it, retires it with a reason and
// sees it retired with that reason. A support agent sees the list with no way to declare or
// retire. Screenshots at 1280 and 768 px into /tmp/shots-event-types/ when the run writes them.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkScreen, closePage, enrolNewStaff, expectVisible, test, unique } from './harness/console.ts';

const SHOTS = '/tmp/shots-event-types';

async function openTypes(page: Page) {
  await page.getByRole('link', { name: 'Programs' }).click();
  await page.getByRole('heading', { name: 'Earning rules', level: 1 }).waitFor();
  const chooser = page.getByLabel('Client', { exact: true });
  if ((await chooser.count()) > 0) await chooser.selectOption('acme');
  const section = page.getByRole('region', { name: 'Event types' });
  await section.getByRole('table').waitFor();
  return section;
}

test('a program manager declares an event type and retires it with a reason; a support agent only reads', async ({ browser }) => {
  const TYPE = `course.completed.s${unique()}`.toLowerCase();
  const { page } = await enrolNewStaff(browser, 'Tess Types', 'program_manager');
  try {
    const section = await openTypes(page);
    const table = section.getByRole('table');
    await expectVisible(table.getByRole('row').filter({ hasText: 'purchase' }).getByText('Built in'));
    await expectVisible(table.getByRole('row').filter({ hasText: 'return' }).getByText('Built in'));

    // A name that is not lower-case dotted words is said so next to it, and nothing can be sent.
    const form = section.getByRole('form', { name: 'Declare an event type' });
    await form.getByLabel('Name').fill('Course..Completed');
    await expectVisible(form.getByText('the name is lower-case dotted words', { exact: false }));
    expect(await form.getByRole('button', { name: 'Declare' }).isDisabled()).toBe(true);

    await form.getByLabel('Name').fill(TYPE);
    await form.getByLabel('What it means').fill('The LMS sends it when a course is passed');
    await checkScreen(page, '01-event-types-declare', SHOTS);
    await form.getByRole('button', { name: 'Declare' }).click();
    await expectVisible(section.getByRole('status').getByText(`Declared ${TYPE}: events of it are taken from now on.`));
    const row = table.getByRole('row').filter({ hasText: TYPE });
    await expectVisible(row.getByText('The LMS sends it when a course is passed'));
    await expectVisible(row.getByText('In use'));
    await expectVisible(row.getByText(/ by tess\.types\./));
    // Offered in Try it's event type (and the rule form's) once declared.
    const offered = page.getByRole('region', { name: 'Try it' }).locator(`datalist option[value="${TYPE}"]`);
    await expect.poll(() => offered.count()).toBe(1);

    // Declared twice: the server's refusal in the console's words.
    await form.getByLabel('Name').fill(TYPE);
    await form.getByRole('button', { name: 'Declare' }).click();
    await expectVisible(form.getByText(`${TYPE} is declared already`, { exact: false }));

    await row.getByRole('button', { name: `Retire ${TYPE}` }).click();
    const retire = page.getByRole('dialog', { name: `Retire ${TYPE}` });
    await retire.getByLabel('Reason').fill('The LMS is replaced, ticket 4410');
    await retire.getByRole('button', { name: 'Retire' }).click();
    await retire.waitFor({ state: 'detached' });
    await expectVisible(section.getByRole('status').getByText(`Retired ${TYPE}.`));
    await expectVisible(row.getByText('Retired', { exact: true }));
    await expectVisible(row.getByText(/The LMS is replaced, ticket 4410/));
    expect(await row.getByRole('button', { name: `Retire ${TYPE}` }).count()).toBe(0);
    await expect.poll(() => offered.count()).toBe(0);
    // The form's refusal was about the list before: gone with the change.
    expect(await form.getByText(`${TYPE} is declared already`, { exact: false }).count()).toBe(0);
    await checkScreen(page, '02-event-types-retired', SHOTS);
  } finally {
    await closePage(page);
  }

  const { page: agent } = await enrolNewStaff(browser, 'Sid Types', 'support_agent');
  try {
    const section = await openTypes(agent);
    await expectVisible(section.getByRole('row').filter({ hasText: TYPE }).getByText('Retired', { exact: true }));
    expect(await section.getByRole('form', { name: 'Declare an event type' }).count()).toBe(0);
    expect(await section.getByRole('button', { name: /^Retire / }).count()).toBe(0);
  } finally {
    await closePage(agent);
  }
});
