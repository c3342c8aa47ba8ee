import type { Page } from 'playwright-core';
import type { SsoConfig } from '@rewards/contract';
import { acknowledgeCookieNotice, expectVisible } from '../../test-support/e2e/pages.ts';
import type { ScreenKit, ScreenLocale } from './kit.ts';

const SITE = { name: 'Acme Intranet', url: 'https://intranet.acme.example/' };

/**
 * The screenshot server has no identity provider: the client data inlined into each page is
 * given an SSO configuration on its way to the browser, which is all the screens read.
 */
async function pretendSso(page: Page, ssoType: SsoConfig['ssoType']): Promise<void> {
  const ssoConfig: SsoConfig = { clientSite: SITE, ssoType, ssoLogoutType: 'sso', signIn: true, loginForm: ssoType !== 'sso_only' };
  await page.route(
    (url) => !url.pathname.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const body = html.replace(
        /(<script[^>]*id="client-data"[^>]*>)([\s\S]*?)(<\/script>)/,
        (_all, open: string, json: string, close: string) => {
          const data = JSON.parse(json) as { ssoConfig: SsoConfig };
          data.ssoConfig = ssoConfig;
          return `${open}${JSON.stringify(data).replaceAll('<', '\\u003c')}${close}`;
        },
      );
      await route.fulfill({ response, body });
    },
  );
  // /sso-logout leaves for the provider at once; here it stays, to be looked at.
  await page.route('**/api/v1.0/sso/logout', (route) => route.fulfill({ status: 204 }));
}

async function open(kit: ScreenKit, page: Page, path: string, locale: ScreenLocale): Promise<void> {
  await page.goto(path);
  await expectVisible(page.locator('main h1'));
  await acknowledgeCookieNotice(page);
  await kit.switchTo(page, locale);
}

/**
 * Screens of single sign-on (issue 9): the sign-in page with "Sign in with …" beside the form
 * and alone (sso_only), the sign-in page after a refused SSO sign-in, the three SSO failure
 * screens and the SSO logout page, in English and Arabic at phone and desktop width.
 */
export default async function scenes(kit: ScreenKit): Promise<void> {
  const locales = kit.locales.filter((l) => l.code === 'en-US' || l.code === 'ar');
  for (const locale of locales) {
    for (const width of kit.widths) {
      const name = (screen: string) => `sso-${screen}-${locale.code}-${width}`;
      const page = await kit.newPage(width);
      await pretendSso(page, 'login_and_sso');
      await open(kit, page, '/login', locale);
      await expectVisible(page.locator('main .auth__sso-button'));
      await kit.shoot(page, name('login'));

      await page.goto('/sso-authenticated?invalid');
      await expectVisible(page.locator('main .ui-alert--error'));
      await kit.shoot(page, name('login-invalid'));

      for (const route of ['/ssoGatewayLogonFailure', '/ssoLogonFailure', '/ssoFailure']) {
        await page.goto(route);
        await expectVisible(page.getByRole('dialog'));
        await kit.shoot(page, name(route.slice(1)));
      }

      await page.goto('/sso-logout');
      await expectVisible(page.locator('main .sso-wait'));
      await kit.shoot(page, name('logout'));
      await page.context().close();

      const only = await kit.newPage(width);
      await pretendSso(only, 'sso_only');
      await open(kit, only, '/login', locale);
      await expectVisible(only.locator('main .auth__sso-button'));
      await kit.shoot(only, name('only-login'));
      await only.context().close();
    }
  }
}
