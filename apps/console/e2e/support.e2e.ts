// A support agent's day (issue 17, sections 3 and 6): sign in with a password and an
// authenticator code, find Dana by e-mail, credit her 250 points with a reason, see it in her
// own portal as "Balance adjustment: …", then open her portal from the page (launch-as) and
// see the banner. Alex (enrolled for the story, so his day's total is this story's alone) and
// Dana are the story's own (decision 071); Acme's portal address, where launch-as links point,
// is this server's from the harness's setup.
import { expect, inject } from 'vitest';
import {
  checkScreen,
  closePage,
  enrolNewStaff,
  signInPortal,
  expectPath,
  expectVisible,
  findParticipant,
  newParticipant,
  nextTotpCode,
  openConsole,
  STAFF_PASSWORD,
  test,
} from './harness/console.ts';

test('an agent signs in, finds Dana by e-mail, credits 250 with a reason, and Dana sees it in her portal', async ({ browser }) => {
  const dana = await newParticipant({ firstName: 'Dana', lastName: 'Demo', points: 12_500 });
  const { page: enrolled, ...agent } = await enrolNewStaff(browser, 'Alex Agent', 'support_agent');
  await closePage(enrolled);
  const page = await openConsole(browser);
  await page.goto('/console/');
  // Nobody signed in: the sign-in page.
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await checkScreen(page, '01-sign-in');
  await page.getByLabel('E-mail address').fill(agent.email);
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectVisible(page.getByRole('alert').getByText('Wrong e-mail address or password.'));
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code from your authenticator app').waitFor();
  await checkScreen(page, '02-sign-in-code');
  await page.getByLabel('Code from your authenticator app').fill(await nextTotpCode(agent.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Participants', level: 1 }).waitFor();
  await expectVisible(page.getByText('Signed in as Alex Agent'));
  // A support agent has no staff section; the settings it only reads (expiry-settings.e2e.ts).
  expect(await page.getByRole('link', { name: 'Staff' }).count()).toBe(0);

  const row = await findParticipant(page, dana.email, /Dana Demo/);
  await checkScreen(page, '03-search');
  // Keyboard: the row takes focus and opens with Enter.
  await row.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: /Dana Demo/, level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Statement' }).waitFor();
  const before = Number((await page.getByTestId('balance').textContent())!.replace(/\D/g, ''));
  await checkScreen(page, '04-participant');

  // The adjustment: a credit with the text Dana reads and an internal note.
  await page.getByRole('button', { name: 'Adjust points' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adjust points' });
  await dialog.getByLabel('Points').fill('250');
  await dialog.getByLabel('Text the participant reads').fill('Goodwill for ticket 4711');
  await expectVisible(dialog.getByText('Balance adjustment: Goodwill for ticket 4711'));
  await dialog.getByLabel('Internal note').fill('Parcel lost by the courier, ticket 4711');
  await checkScreen(page, '05-adjust-dialog');
  // A double click posts once (one requestId per opened form; the button is off while sending).
  await dialog.getByRole('button', { name: 'Post +250' }).dblclick();
  await dialog.waitFor({ state: 'detached' });
  await expectVisible(page.getByRole('status').getByText(/Posted \+250/));
  await expect.poll(async () => Number((await page.getByTestId('balance').textContent())!.replace(/\D/g, ''))).toBe(before + 250);
  const statement = page.getByRole('table', { name: 'Statement' });
  await expectVisible(statement.getByText('Parcel lost by the courier, ticket 4711'));
  await expectVisible(statement.getByText('internal', { exact: true }));
  const credits = await statement.getByRole('row', { name: /Goodwill for ticket 4711/ }).count();
  expect(credits).toBe(1);
  await checkScreen(page, '06-participant-after-adjust');

  // Dana, in her portal: the new balance and the text, never the note.
  const portal = await browser.newContext({ baseURL: inject('baseUrl'), locale: 'en-US', reducedMotion: 'reduce' });
  portal.setDefaultTimeout(10_000);
  const danasPortal = await portal.newPage();
  await signInPortal(danasPortal, dana.username);
  await expectVisible(danasPortal.getByRole('main').getByText((before + 250).toLocaleString('en-US')));
  await danasPortal.getByRole('main').locator('a[href="/activity-history"]').first().click();
  await expectVisible(danasPortal.getByText('Balance adjustment: Goodwill for ticket 4711'));
  expect(await danasPortal.getByText('Parcel lost by the courier').count()).toBe(0);
  await portal.close();

  // Launch-as: a reason, then Dana's portal in a new tab with the banner.
  await page.getByRole('button', { name: 'Launch as participant' }).click();
  const launch = page.getByRole('dialog', { name: 'Launch as participant' });
  await launch.getByLabel('Reason').fill('Customer on the phone, ticket 4711');
  await checkScreen(page, '07-launch-as-dialog');
  const [tab] = await Promise.all([page.context().waitForEvent('page'), launch.getByRole('button', { name: 'Open the portal' }).click()]);
  await expectPath(tab, '/home');
  expect(new URL(tab.url()).origin).toBe(inject('baseUrl'));
  await expectVisible(tab.getByRole('region', { name: 'Acting as a participant' }).getByText('You are acting as Dana'));
  await tab.close();
  await launch.getByRole('button', { name: 'Close' }).first().click();
  await closePage(page);
});
