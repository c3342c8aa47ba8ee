import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { catalogUrl } from './service.ts';
import { signingKeyFor } from './signing-key.ts';

/** The hidden fields of every order form on a catalog page, in item order. */
function orderForms(html: string): Array<{ action: string; fields: Record<string, string> }> {
  return [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)].map(([, action, inner]) => ({
    action: action ?? '',
    fields: Object.fromEntries(
      [...(inner ?? '').matchAll(/name="(\w+)" value="([^"]*)"/g)].map(([, n, v]) => [n ?? '', (v ?? '').replace(/&amp;/g, '&')]),
    ),
  }));
}

describe.each(dialects)('the demo catalog, end to end over HTTP, on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  let base: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-demo-catalog-'));
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Signs in on the real origin (127.0.0.1 is one of Acme's hosts) and asks for a catalog link. */
  async function openCatalog(username: string, type = 'merchandise') {
    const { sessionId } = await t.login(username, undefined, base);
    const reply = await t.api('GET', `/user/catalog-url/${type}`, { session: sessionId, origin: base });
    const link = reply.json<{ catalogUrl: string }>().catalogUrl;
    return { sessionId, link, page: await fetch(link) };
  }

  function submit(action: string, fields: Record<string, string>, language = 'en-US') {
    return fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
      body: new URLSearchParams(fields).toString(),
    });
  }

  async function balanceOf(sessionId: string) {
    return (await t.api('GET', '/user', { session: sessionId, origin: base })).json<UserData>().accountBalance;
  }

  it('shows Dana her name, balance and items; her order debits the portal balance once', async () => {
    const { sessionId, link, page } = await openCatalog('demo');
    expect(link.startsWith(`${base}/demo-catalog/merchandise?token=`)).toBe(true);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('Hello, Dana Demo');
    expect(html).toContain('12,500 points');
    const forms = orderForms(html);
    expect(forms).toHaveLength(6);
    const mug = forms.find((f) => f.fields.item === 'M-MUG');
    if (!mug) throw new Error('no travel mug on the page');

    const ordered = await submit(mug.action, mug.fields);
    expect(ordered.status).toBe(200);
    const confirmation = await ordered.text();
    expect(confirmation).toContain('Thank you for your order');
    expect(confirmation).toContain('12,050 points');
    expect(confirmation).toContain(`href="${base}/"`);
    expect(await balanceOf(sessionId)).toBe(12_050);

    // The same form sent again (a double click) is the same order.
    const again = await submit(mug.action, mug.fields);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('12,050 points');
    expect(await balanceOf(sessionId)).toBe(12_050);
    const entries = await t.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount'])
      .where('reference', 'like', 'catalog:demo-catalog:%')
      .execute();
    expect(entries).toEqual([{ kind: 'redemption', amount: -450 }]);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('speaks Arabic, right to left, to Mona; an item she cannot afford is disabled and refused', async () => {
    const { sessionId, page } = await openCatalog('merch');
    const html = await page.text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('مرحبًا، Mona Merch');
    expect(html).toMatch(/disabled aria-label="النقاط غير كافية: ساعة ذكية"/);
    const watch = orderForms(html).find((f) => f.fields.item === 'M-WATCH');
    if (!watch) throw new Error('no watch on the page');
    const refused = await submit(watch.action, watch.fields);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('رصيدك لا يغطي هذا المنتج');
    expect(await balanceOf(sessionId)).toBe(3250);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('lists the experiences for the experiences link', async () => {
    const { page } = await openCatalog('demo', 'experiences');
    const html = await page.text();
    expect(html).toContain('<h1>Experiences</h1>');
    expect(orderForms(html)).toHaveLength(4);
  });

  it('refuses a tampered, misdirected or missing token with a clear page, not an error', async () => {
    const { link } = await openCatalog('demo');
    const url = new URL(link);
    const token = url.searchParams.get('token') ?? '';
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    for (const target of [
      `${base}/demo-catalog/merchandise?token=${encodeURIComponent(tampered)}`,
      `${base}/demo-catalog/experiences?token=${encodeURIComponent(token)}`,
      `${base}/demo-catalog/merchandise`,
      `${base}/demo-catalog/merchandise?token=not.a.jwt`,
    ]) {
      const page = await fetch(target);
      expect(page.status, target).toBe(401);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('This link is not valid');
    }
    const form = await submit('/demo-catalog/merchandise/order', {
      token: tampered,
      item: 'M-MUG',
      orderId: 'demo-00000000-0000-4000-8000-000000000000',
    });
    expect(form.status).toBe(401);
  });

  it('says an expired link has expired, and links back to the portal, also on ordering', async () => {
    const { sessionId } = await t.login('demo', undefined, base);
    const session = await t.database.db.selectFrom('sessions').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(session.participant_id).toEqual(expect.any(String));
    const old = await catalogUrl(t.database.db, signingKeyFor(t.config), session, 'merchandise', base, new Date(Date.now() - 10 * 60_000));
    const page = await fetch(old);
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html).toContain('This link has expired');
    expect(html).toContain(`href="${base}/"`);
    const token = new URL(old).searchParams.get('token') ?? '';
    const order = await submit('/demo-catalog/merchandise/order', {
      token,
      item: 'M-MUG',
      orderId: 'demo-11111111-1111-4111-8111-111111111111',
    });
    expect(order.status).toBe(401);
    expect(await order.text()).toContain('This link has expired');
    expect(await balanceOf(sessionId)).toBe(12_050);
  });

  it("shows a reused link as already used, in the participant's language, with the way back and nothing to order", async () => {
    const { sessionId, link, page } = await openCatalog('demo');
    expect(page.status).toBe(200);
    // A reload, a copied link, the history: every later opening is refused.
    for (const language of ['en-US', 'fr-FR']) {
      const again = await fetch(link, { headers: { 'accept-language': language } });
      expect(again.status).toBe(409);
      expect(again.headers.get('content-type')).toMatch(/^text\/html/);
      expect(again.headers.get('cache-control')).toBe('no-store');
      const html = await again.text();
      // Dana's language (the link's), whatever the browser asks for.
      expect(html).toContain('<html lang="en" dir="ltr">');
      expect(html).toContain('This link was already used');
      expect(html).toContain('Open the catalog again from the portal.');
      expect(html).toContain(`href="${base}/"`);
      expect(orderForms(html)).toEqual([]);
    }
    // Signing out changes nothing: still used.
    expect((await t.api('GET', '/logout', { session: sessionId, origin: base })).statusCode).toBe(204);
    const afterSignOut = await fetch(link);
    expect(afterSignOut.status).toBe(409);
    expect(await afterSignOut.text()).toContain('This link was already used');

    const mona = await openCatalog('merch');
    const monaAgain = await fetch(mona.link);
    expect(monaAgain.status).toBe(409);
    const arabic = await monaAgain.text();
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('تم استخدام هذا الرابط من قبل');
  });

  it('says the portal session has ended for a link opened after signing out, and offers nothing to order', async () => {
    const { sessionId } = await t.login('demo', undefined, base);
    const link = (await t.api('GET', '/user/catalog-url/merchandise', { session: sessionId, origin: base })).json<{ catalogUrl: string }>()
      .catalogUrl;
    expect((await t.api('GET', '/logout', { session: sessionId, origin: base })).statusCode).toBe(204);
    const page = await fetch(link);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('Your portal session has ended');
    expect(html).toContain(`href="${base}/"`);
    expect(orderForms(html)).toEqual([]);
  });

  it('opens one catalog page for 20 simultaneous openings of one link; the rest are told it was used', async () => {
    const { sessionId } = await t.login('demo', undefined, base);
    const link = (await t.api('GET', '/user/catalog-url/experiences', { session: sessionId, origin: base })).json<{ catalogUrl: string }>()
      .catalogUrl;
    const pages = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const reply = await fetch(link);
        return { status: reply.status, html: await reply.text() };
      }),
    );
    expect(pages.filter((p) => p.status === 200).map((p) => orderForms(p.html).length)).toEqual([4]);
    const refused = pages.filter((p) => p.status !== 200);
    expect(refused).toHaveLength(19);
    for (const p of refused) {
      expect(p.status).toBe(409);
      expect(p.html).toContain('This link was already used');
    }
  });

  it("orders only from the page that redeemed the link: the token alone, or with another page's proof, orders nothing", async () => {
    const { sessionId, link, page } = await openCatalog('demo');
    const mug = orderForms(await page.text()).find((f) => f.fields.item === 'M-MUG');
    if (!mug) throw new Error('no travel mug on the page');
    expect(mug.fields.visit).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = orderForms(await (await openCatalog('demo')).page.text())[0];
    const before = await balanceOf(sessionId);
    const token = new URL(link).searchParams.get('token') ?? '';
    const attempts: Array<Record<string, string>> = [
      { token, item: 'M-MUG', orderId: mug.fields.orderId ?? '' },
      { ...mug.fields, visit: other?.fields.visit ?? '' },
      { ...mug.fields, visit: '' },
    ];
    for (const fields of attempts) {
      const refused = await submit(mug.action, fields);
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain('This link is not valid');
    }
    expect(await balanceOf(sessionId)).toBe(before);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('serves its style sheet and a travel page; an unknown page is a 404 page', async () => {
    const css = await fetch(`${base}/demo-catalog/catalog.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const travel = await fetch(`${base}/demo-catalog/travel`, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expect(travel.status).toBe(200);
    expect(await travel.text()).toContain('Voyages');
    expect((await fetch(`${base}/demo-catalog/shoes?token=x`)).status).toBe(404);
    expect((await fetch(`${base}/demo-catalog/`)).status).toBe(404);
  });
});
