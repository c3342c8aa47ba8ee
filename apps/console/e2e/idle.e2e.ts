// Idle (issue 17, section 1; decision 050): 15 minutes after the last answered call the console
// signs out and shows the sign-in page with the reason; an answered call starts the 15 minutes
// again. Playwright's clock moves the page's time: no real waiting.
import { expect } from 'vitest';
import {
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  findParticipant,
  newParticipant,
  openConsole,
  signInConsole,
  test,
} from './harness/console.ts';

test('15 minutes without activity sign the console out with a message; activity in between keeps it', async ({ browser }) => {
  // An auditor of the story's own, signed in on a page whose clock the test moves: the idle
  // sign-out ends the session on the server too.
  const nina = await newParticipant({ firstName: 'Nina', lastName: 'Newbie' });
  const { page: enrolled, ...auditor } = await enrolNewStaff(browser, 'Ada Auditor', 'auditor');
  await closePage(enrolled);
  const page = await openConsole(browser);
  await page.clock.install();
  await signInConsole(page, auditor.email, auditor.secret);
  const signIn = page.getByRole('heading', { name: 'Sign in' });

  // 14 minutes idle, then a search (an answered call); 14 more, then a participant's page opens:
  // 28 minutes after the sign-in, still signed in, because the clock counts from the last call.
  await page.clock.fastForward('14:00');
  const row = await findParticipant(page, nina.email, /Nina Newbie/);
  await page.clock.fastForward('14:00');
  await row.click();
  await page.getByRole('heading', { name: /Nina Newbie/, level: 1 }).waitFor();
  // The page's last call answered: the statement, which shows once it has (the heading comes first).
  await page.getByRole('table', { name: 'Statement' }).waitFor();
  expect(await signIn.count()).toBe(0);

  // 15 minutes since that page's calls.
  await page.clock.fastForward('15:01');
  await signIn.waitFor();
  await expectVisible(page.getByText('You were signed out after 15 minutes without activity.'));
  await checkScreen(page, '70-idle-signed-out');

  // Signed out on the server as well: the console's own pages ask for a sign-in.
  await page.goto('/console/participants');
  await signIn.waitFor();
  const status = await page.evaluate(async () => (await fetch('/api/console/v1/me')).status);
  expect(status).toBe(401);
  await closePage(page);
});
