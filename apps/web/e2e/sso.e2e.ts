// Single sign-on (issue 9) in Chromium: a real OpenID provider (oidc-provider, started here),
// the portal of its own configured with the operator CLI, the provider's own login page, and
// the way out through the provider's end-session endpoint to the client's site (a tiny page).
// Each story signs in at the provider as a person of its own, whose participant is made when the
// file's server starts (the provider's accounts are fixed then; decision 071).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestProvider, type TestProvider } from '../../server/test/oidc-provider.ts';
import { startPortalServer, type PortalServer } from '../../../test-support/e2e/server.ts';
import { rewardsCli } from '../../../test-support/e2e/operator.ts';
import { makeParticipant, type Participant } from '../../../test-support/e2e/participants.ts';
import { closePage, expectNoSeriousA11yViolations, openPageOn } from '../../../test-support/e2e/browser.ts';
import { expectPath, expectVisible, launchChromium, loginForm, signOutControl } from '../../../test-support/e2e/pages.ts';

let server: PortalServer;
let browser: Browser;
let provider: TestProvider;
let site: Server;
let siteUrl: string;
/** Each story's participant, by its provider account. */
let dana: Participant;
let tim: Participant;
let jo: Participant;

beforeAll(async () => {
  // The client's own site, where signing out ends.
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Acme Intranet</title><h1>Acme Intranet home</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

  // Configuration is read without the process cache, so the CLI's change shows at once.
  [server, browser] = await Promise.all([startPortalServer({ CLIENT_CACHE_SECONDS: '0' }), launchChromium()]);
  [dana, tim, jo] = await Promise.all([
    makeParticipant(server.databaseUrl, { firstName: 'Dana', lastName: 'Demo', points: 12_500 }),
    makeParticipant(server.databaseUrl, { firstName: 'Tim', lastName: 'Timeout' }),
    makeParticipant(server.databaseUrl, { firstName: 'Jo', lastName: 'Jsession' }),
  ]);
  provider = await startTestProvider({
    redirectUris: [`${server.baseUrl}/api/v1.0/sso/callback`],
    postLogoutRedirectUris: [siteUrl],
    accounts: {
      'dana.demo': { preferred_username: dana.username, name: 'Dana Demo' },
      'tim.timeout': { preferred_username: tim.username, name: 'Tim Timeout' },
      'jo.jsession': { preferred_username: jo.username, name: 'Jo Jsession' },
      stranger: { preferred_username: 'nobody' },
    },
  });
  await rewardsCli(server.databaseUrl, [
    'clients',
    'sso',
    '--client',
    'acme',
    '--issuer',
    provider.issuer,
    '--client-id',
    provider.clientId,
    '--client-secret',
    provider.clientSecret,
    '--site-name',
    'Acme Intranet',
    '--site-url',
    siteUrl,
    '--logout-type',
    'sso',
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

function newPage(): Promise<Page> {
  return openPageOn(browser, server.baseUrl);
}

/** What a person does on the provider's own (development) login page. */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever-the-provider-accepts');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('signs in with the company account, lands on home with the balance, and signs out through the provider to the company site', async () => {
  const page = await newPage();
  await page.goto('/login');
  const ssoButton = page.getByRole('link', { name: 'Sign in with Acme Intranet' });
  await expectVisible(ssoButton);
  await expectVisible(loginForm(page).username); // login_and_sso keeps the portal's own form
  await expectNoSeriousA11yViolations(page);
  await ssoButton.click();

  await signInAtProvider(page, 'dana.demo');
  await expectPath(page, '/home');
  await expectVisible(page.getByText('12,500').first());
  // The one-time id has left the address bar, and the stored session is the fresh one.
  expect(page.url()).not.toContain('JSESSIONID');
  const stored = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem('userState') ?? '{}') as { sessionId?: string; ssoAuthenticated?: boolean },
  );
  expect(stored.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(stored.ssoAuthenticated).toBe(true);

  // A reload keeps the session (GET user with the fresh id).
  await page.reload();
  await expectPath(page, '/home');
  await expectVisible(page.getByText('12,500').first());

  // The portal sends the session's ID token as id_token_hint (decision 038): this provider then
  // signs the person out without its "Do you want to sign-out?" question.
  const asked = provider.endSessionRequests.length;
  await signOutControl(page).click();
  await page.waitForURL(siteUrl);
  await expectVisible(page.getByRole('heading', { name: 'Acme Intranet home' }));
  expect(provider.endSessionRequests.slice(asked).map((query) => query.has('id_token_hint'))).toEqual([true]);
  await closePage(page);
});

test('a session that times out takes the same way out: through the provider to the company site', async () => {
  const page = await newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Acme Intranet' }).click();
  await signInAtProvider(page, 'tim.timeout');
  await expectPath(page, '/home');
  await rewardsCli(server.databaseUrl, ['sessions', 'revoke', '--username', tim.username]);

  // The next call with the dead session gets 401: the spec's timeout path, then /sso-logout. The
  // session, and its ID token with it, is gone: no hint, so the provider asks.
  await page.reload();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL(siteUrl);
  await closePage(page);
});

test('a provider user who is no participant is not signed in and is told so on the sign-in page', async () => {
  const page = await newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Acme Intranet' }).click();
  await signInAtProvider(page, 'stranger');
  await expectPath(page, '/login');
  await expectVisible(page.getByRole('alert').filter({ hasText: 'We could not sign you in with your company account.' }));
  expect(await page.evaluate(() => sessionStorage.getItem('userState'))).toBeNull();
  await closePage(page);
});

test('the same JSESSIONID link opened again signs nobody in', async () => {
  const page = await newPage();
  // Catch the portal's redirect to /sso-authenticated before the app spends the id.
  let link = '';
  page.on('response', (response) => {
    const location = response.headers().location;
    if (location?.startsWith('/sso-authenticated?JSESSIONID=')) link = location;
  });
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign in with Acme Intranet' }).click();
  await signInAtProvider(page, 'jo.jsession');
  await expectPath(page, '/home');
  expect(link).not.toBe('');

  const other = await newPage();
  await other.goto(link);
  await expectPath(other, '/login');
  await expectVisible(other.getByRole('alert').filter({ hasText: 'We could not load your account after signing in.' }));
  await closePage(other);
  await closePage(page);
});
