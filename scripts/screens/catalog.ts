import type { Page } from 'playwright-core';
import type { ScreenKit } from './kit.ts';

const PASSWORD = 'Rewards-2026!';

/** A catalog link for Mona (merchandise only), in the given language, through the API as the portal gets it. */
async function catalogLink(page: Page, locale: string, type = 'merchandise'): Promise<string> {
  await page.goto('/demo-catalog/travel'); // any page of the server, to learn its origin
  const origin = new URL(page.url()).origin;
  const headers = { 'content-type': 'application/json', 'client-id': origin };
  const login = await page.request.post('/api/v1.0/login', { headers, data: { username: 'merch', password: PASSWORD } });
  const { sessionId } = (await login.json()) as { sessionId: string };
  const session = { ...headers, 'x-session-id': sessionId };
  await page.request.post('/api/v1.0/user/locale', { headers: session, data: { locale: { code: locale } } });
  const reply = await page.request.get(`/api/v1.0/user/catalog-url/${type}`, { headers: session });
  const { catalogUrl } = (await reply.json()) as { catalogUrl: string };
  return catalogUrl;
}

/**
 * Screens of the demo catalog (issue 5): the catalog, an order's confirmation, a link opened a
 * second time and a refused link, at each width in English and Arabic. Ordering debits Mona (merch) 450 points per
 * language; her language is left Arabic, as seeded.
 */
export default async function scenes(kit: ScreenKit): Promise<void> {
  for (const locale of kit.locales) {
    const widest = kit.widths[kit.widths.length - 1] ?? 1280;
    for (const width of kit.widths) {
      const page = await kit.newPage(width);
      const opened = await catalogLink(page, locale.code);
      await page.goto(opened);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await kit.shoot(page, `catalog-merchandise-${locale.code}-${width}`);
      // One order per language, at the widest size; the confirmation is shot at every width after it.
      if (width === widest) {
        await page.locator('form:has(input[value="M-MUG"]) button').click();
        await page.getByRole('status').waitFor();
        for (const each of kit.widths) {
          await page.setViewportSize({ width: each, height: each < 768 ? 812 : 900 });
          await kit.shoot(page, `catalog-ordered-${locale.code}-${each}`);
        }
      }
      // The same link again: spent on the first opening (docs/decisions/043).
      await page.goto(opened);
      await page.getByRole('alert').waitFor();
      await kit.shoot(page, `catalog-used-link-${locale.code}-${width}`);
      const link = new URL(await catalogLink(page, locale.code));
      link.searchParams.set('token', `${link.searchParams.get('token') ?? ''}x`);
      await page.setExtraHTTPHeaders({ 'accept-language': locale.code });
      await page.goto(link.toString());
      await page.getByRole('alert').waitFor();
      await kit.shoot(page, `catalog-invalid-link-${locale.code}-${width}`);
      await page.context().close();
    }
  }
  const page = await kit.newPage(1280);
  await page.goto(await catalogLink(page, 'ar'));
  await page.context().close();
}
