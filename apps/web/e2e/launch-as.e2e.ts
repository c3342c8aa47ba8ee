// Launch-as (issue 9): support runs the command, opens the printed link and sees Dana's portal as
// her, with the banner and every spending button off; the server refuses a redeem sent directly;
// the same link does not work twice; an empty link raises 'No login token'. Dana and the code
// are the story's own (decision 071).
import { expect, inject } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  expectPath,
  expectVisible,
  newCodes,
  newParticipant,
  test,
} from '../../../test-support/e2e/browser.ts';
import { unique } from '../../../test-support/e2e/participants.ts';
import { rewardsCli as runCli } from '../../../test-support/e2e/operator.ts';

/** The support desk's name in the audit log: this story's alone. */
const ADMIN = `e2e-support-${unique()}`;

/** What the operator types; the portal's address is the test server's (127.0.0.1 is a demo host). */
async function launchLink(username: string): Promise<string> {
  const out = await runCli(inject('databaseUrl'), [
    'launch-as',
    username,
    '--client',
    'acme',
    '--admin',
    ADMIN,
    '--reason',
    'ticket E2E-9',
    '--base-url',
    inject('baseUrl'),
    '--json',
  ]);
  return (JSON.parse(out) as { url: string }).url;
}

test("support opens Dana's portal from the printed link once, and cannot spend for her", async ({ page, browser }) => {
  const [dana, [code]] = await Promise.all([newParticipant({ firstName: 'Dana', lastName: 'Demo', points: 12_500 }), newCodes(1, 100)]);
  const url = await launchLink(dana.username);
  expect(url).toMatch(new RegExp(`^${inject('baseUrl')}/launch-as\\?token=[A-Za-z0-9_-]{43}$`));

  await page.goto(url);
  await expectPath(page, '/home');
  expect(page.url()).not.toContain('token');

  // Spec section 2: the banner with its logout, the launched-as label, the orange-on-dark user bar.
  const banner = page.getByRole('region', { name: 'Acting as a participant' });
  await expectVisible(banner.getByText('You are acting as Dana'));
  await expectVisible(banner.getByRole('button', { name: 'End this session' }));
  const userBar = page.getByRole('navigation', { name: 'Your account' });
  await expectVisible(userBar.getByText('Launched as'));
  const barColours = await page
    .locator('.header__user')
    .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
  expect(barColours).toEqual(['rgb(28, 31, 38)', 'rgb(247, 144, 9)']);
  // No cookie notice for the administrator: the consent is Dana's.
  expect(await page.getByRole('region', { name: 'Cookies and privacy' }).count()).toBe(0);

  // Every button that would spend is off.
  const main = page.getByRole('main');
  expect(await main.getByRole('button', { name: 'View catalog' }).isDisabled()).toBe(true);
  const ots = main.getByRole('region', { name: /on-the-spot code/i });
  await ots.getByRole('textbox').fill(code!);
  expect(await ots.getByRole('button', { name: 'Redeem code' }).isDisabled()).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // The server does not rely on the buttons: a redeem sent directly in this session is refused.
  const status = await page.evaluate(
    async ({ code, username }) => {
      const user = JSON.parse(sessionStorage.getItem('userState') ?? '{}') as { sessionId?: string };
      const reply = await fetch('/api/v1.0/ots/redeem', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'client-id': location.origin, 'x-session-id': user.sessionId ?? '' },
        body: JSON.stringify({ code, userName: username }),
      });
      return reply.status;
    },
    { code: code!, username: dana.username },
  );
  expect(status).toBe(403);

  // What support opened is in the audit log, the refused redeem included: written once the reply
  // has gone (an onResponse hook), so read until it is there, 15 s at most.
  const openedBySupport = async () => {
    const audit = JSON.parse(
      await runCli(inject('databaseUrl'), ['audit', '--client', 'acme', '--action', 'launch-as.open', '--limit', '50', '--json']),
    ) as Array<{ actor: string; details: { method: string; route: string; status: number } }>;
    return audit.filter((e) => e.actor === ADMIN).map((e) => `${e.details.method} ${e.details.route} ${e.details.status}`);
  };
  await expect.poll(openedBySupport, { timeout: 15_000 }).toContain('POST /api/v1.0/ots/redeem 403');

  // The same link in another browser: refused, nothing opened.
  const other = await browser.newContext({ baseURL: inject('baseUrl'), locale: 'en-US', reducedMotion: 'reduce' });
  try {
    const again = await other.newPage();
    await again.goto(url);
    await expectVisible(again.getByRole('alert').getByText('This launch link has already been used'));
    expect(new URL(again.url()).pathname).toBe('/launch-as');
    expect(again.url()).not.toContain('token');
    expect(await again.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();

    await again.goto('/launch-as');
    await expectVisible(again.getByRole('alert').getByText(/No login token/));
  } finally {
    await other.close();
  }

  // The banner's logout ends the session.
  await banner.getByRole('button', { name: 'End this session' }).click();
  await expectPath(page, '/login');
});
