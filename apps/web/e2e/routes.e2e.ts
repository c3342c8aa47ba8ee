// Every guard and redirect of the spec's route table (section 2). Whoever signs in is the story's
// own participant (decision 071).
import { describe, expect } from 'vitest';
import { expectPath, expectVisible, newParticipant, signIn, test } from '../../../test-support/e2e/browser.ts';

const signedInOnly = ['/home', '/profile', '/rules', '/contact', '/activity-history', '/privacy-notice'];
const anonymousOnly = [
  '/login',
  '/activation',
  '/forgot-user-id',
  '/forgot-password',
  '/reset-password',
  '/launch-as',
  '/sso-authenticated',
  '/sso-logout', // last: if it wrongly signed out, the others would not notice
];
const everyone = ['/faqs', '/privacy-shield', '/error', '/ssoGatewayLogonFailure', '/ssoLogonFailure', '/ssoFailure'];

describe('an anonymous visitor', () => {
  test.for(signedInOnly)('on %s is sent to /login', async (path, { page }) => {
    await page.goto(path);
    await expectPath(page, '/login');
  });

  test.for(['/', '/no-such-page'])('on %s lands on /login', async (path, { page }) => {
    await page.goto(path);
    await expectPath(page, '/login');
  });

  test.for(everyone)('may open %s, shown over the login page', async (path, { page }) => {
    await page.goto(path);
    await expectVisible(page.getByRole('dialog'));
    expect(new URL(page.url()).pathname).toBe(path);
    // With no previous page, the login page is the one behind the modal.
    await expectVisible(page.locator('main input[type=password]'));
  });

  // /sso-authenticated and /sso-logout pass through (single sign-on, sso.e2e.ts): not pages to stay on.
  test.for(anonymousOnly.filter((p) => !['/login', '/sso-logout', '/sso-authenticated'].includes(p)))(
    'may open %s',
    async (path, { page }) => {
      await page.goto(path);
      await expectVisible(page.getByRole('heading', { level: 1 }));
      expect(new URL(page.url()).pathname).toBe(path);
    },
  );

  test('on /sso-authenticated without a session id is sent to /login, told so (spec section 4)', async ({ page }) => {
    await page.goto('/sso-authenticated');
    await expectPath(page, '/login');
    await expectVisible(page.getByRole('alert'));
  });
});

describe('a signed-in participant', () => {
  test('on / or an unknown path is at /home', async ({ page }) => {
    await signIn(page, (await newParticipant()).username);
    for (const path of ['/', '/no-such-page']) {
      await page.goto(path);
      await expectPath(page, '/home');
    }
  });

  test('on an anonymous-only page is sent to /home', async ({ page }) => {
    await signIn(page, (await newParticipant()).username);
    for (const path of anonymousOnly) {
      await page.goto(path);
      await expectPath(page, '/home');
    }
  });

  test('may open every signed-in page and every shared modal', async ({ page }) => {
    await signIn(page, (await newParticipant()).username);
    for (const path of [...signedInOnly, ...everyone]) {
      await page.goto(path);
      if (path !== '/home') await expectVisible(page.getByRole('dialog'));
      expect(new URL(page.url()).pathname, `after opening ${path}`).toBe(path);
    }
  });
});
