// The language selector switches the texts and the page direction.
import { expect } from 'vitest';
import { chooseLanguage, expectPath, test } from '../../../test-support/e2e/browser.ts';

test('choosing Arabic turns the page right-to-left and translates it', async ({ page }) => {
  await page.goto('/login');
  await expectPath(page, '/login');
  const html = page.locator('html');
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor();
  expect(await html.getAttribute('dir')).toBe('ltr');
  const english = await heading.textContent();

  // The Arabic texts come from the API, in brotli as the browser asks (decision 032).
  const bundle = page.waitForResponse((response) => /\/viewConfig\/bundle\/ar$/.test(response.url()));
  await chooseLanguage(page, /العربية|arabic/i);
  const reply = await bundle;
  expect(reply.status()).toBe(200);
  expect(reply.headers()['content-encoding']).toBe('br');
  expect(Object.keys((await reply.json()).bundleList.ar.properties).length).toBeGreaterThan(0);

  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  expect(await html.getAttribute('lang')).toBe('ar');
  await page.waitForFunction((before) => document.querySelector('h1')?.textContent !== before, english);
  expect(await heading.textContent()).toMatch(/[\u0600-\u06FF]/); // Arabic script
});
