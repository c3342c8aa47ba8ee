import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { CLIENT_HEADER, ErrorCode, PARTNER_API_BASE, partnerPaths, type PartnerDebitReply, type UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { createTestApp, DEMO_ORIGIN, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET } from '../../db/seed/demo-catalog.ts';
import { appendLedgerEntry } from '../ledger/store.ts';
import { partnerSecretHash } from './partner-service.ts';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
const DEMO_AUTH = basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET);

describe.each(dialects)('the catalogs partner API on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-partner-'));
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
    await t.database.db
      .insertInto('catalog_partners')
      .values({
        id: 'globex-shop',
        client_id: OTHER_CLIENT_ID,
        name: 'Globex shop',
        secret_hash: partnerSecretHash('globex-shop-secret-0123456789'),
        created_at: new Date().toISOString(),
      })
      .execute();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function debit(body: unknown, options: { auth?: string | null; origin?: string; raw?: string } = {}) {
    const auth = options.auth === undefined ? DEMO_AUTH : options.auth;
    return t.app.inject({
      method: 'POST',
      url: `${PARTNER_API_BASE}${partnerPaths.debits}`,
      headers: {
        'content-type': 'application/json',
        [CLIENT_HEADER]: options.origin ?? DEMO_ORIGIN,
        ...(auth === null ? {} : { authorization: auth }),
      },
      payload: options.raw ?? JSON.stringify(body),
    });
  }

  async function participant(username: string, clientId = 'acme') {
    return t.database.db
      .selectFrom('participants')
      .select(['id', 'balance'])
      .where('client_id', '=', clientId)
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
  }

  async function entriesFor(orderId: string) {
    return t.database.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('reference', '=', `catalog:${DEMO_CATALOG_PARTNER_ID}:${orderId}`)
      .execute();
  }

  const order = (participantId: string, points: number, extra: Record<string, unknown> = {}) => ({
    orderId: `order-${randomUUID()}`,
    participantId,
    points,
    description: 'Travel mug',
    items: [{ sku: 'M-MUG', name: 'Travel mug', quantity: 1, points }],
    ...extra,
  });

  it('debits an order from the participant the punch-out link named, and the history shows a redemption', async () => {
    const { sessionId } = await t.login('demo');
    const link = await t.api('GET', '/user/catalog-url/merchandise', { session: sessionId });
    const sub = decodeJwt(new URL(link.json<{ catalogUrl: string }>().catalogUrl).searchParams.get('token') ?? '').sub ?? '';

    const body = order(sub, 450);
    const reply = await debit(body);
    expect(reply.statusCode).toBe(200);
    const answer = reply.json<PartnerDebitReply>();
    expect(answer).toEqual({ orderId: body.orderId, debitId: expect.any(String), points: 450, accountBalance: 12_050 });

    const [entry, ...more] = await entriesFor(body.orderId);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      id: answer.debitId,
      participant_id: sub,
      amount: -450,
      kind: 'redemption',
      description_key: 'ledger.catalog.order',
    });
    expect(JSON.parse(entry?.description_params ?? '{}')).toEqual({ description: 'Travel mug', orderId: body.orderId });
    // Back in the portal, the balance shows the debit.
    const user = await t.api('GET', '/user', { session: sessionId });
    expect(user.json<UserData>().accountBalance).toBe(12_050);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('answers a repeated order with the same reply and debits it once', async () => {
    const dana = await participant('demo');
    const body = order(dana.id, 300);
    const first = await debit(body);
    const second = await debit(body);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await entriesFor(body.orderId)).toHaveLength(1);
    expect((await participant('demo')).balance).toBe((dana.balance ?? 0) - 300);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses a different order under an order id already used (409), and changes nothing', async () => {
    const dana = await participant('demo');
    const body = order(dana.id, 200);
    expect((await debit(body)).statusCode).toBe(200);
    const conflicting = await debit({ ...body, points: 250 });
    expect(conflicting.statusCode).toBe(409);
    expect(conflicting.json()).toMatchObject({ errorCode: ErrorCode.orderConflict, responseMessage: 'catalog.error.orderConflict' });
    expect(await entriesFor(body.orderId)).toHaveLength(1);
    expect((await participant('demo')).balance).toBe((dana.balance ?? 0) - 200);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses a debit the balance does not cover (409), for no points and for never-earned', async () => {
    for (const username of ['spent', 'newbie']) {
      const before = await participant(username);
      const body = order(before.id, 100);
      const reply = await debit(body);
      expect(reply.statusCode).toBe(409);
      expect(reply.json()).toMatchObject({
        errorCode: ErrorCode.insufficientBalance,
        responseMessage: 'catalog.error.insufficientBalance',
      });
      expect(await participant(username)).toEqual(before);
      expect(await entriesFor(body.orderId)).toEqual([]);
      expect(await t.database.db.selectFrom('catalog_orders').select('order_id').where('order_id', '=', body.orderId).execute()).toEqual(
        [],
      );
    }
    const mona = await participant('merch');
    const tooMuch = await debit(order(mona.id, (mona.balance ?? 0) + 1));
    expect(tooMuch.statusCode).toBe(409);
    const exactly = await debit(order(mona.id, mona.balance ?? 0));
    expect(exactly.json()).toMatchObject({ accountBalance: 0 });
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('lets an inactive participant spend the points left', async () => {
    const ivan = await participant('inactive');
    const reply = await debit(order(ivan.id, 1000));
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ accountBalance: 0 });
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses missing or wrong credentials with 401 and a Basic challenge, before reading the body', async () => {
    const dana = await participant('demo');
    const attempts: Array<string | null> = [
      null,
      'Bearer abc',
      'Basic !!!',
      basic(DEMO_CATALOG_PARTNER_ID, 'wrong-secret'),
      basic(DEMO_CATALOG_PARTNER_ID, ''),
      basic('no-such-partner', DEMO_CATALOG_PARTNER_SECRET),
      `Basic ${Buffer.from(DEMO_CATALOG_PARTNER_ID).toString('base64')}`,
    ];
    for (const auth of attempts) {
      for (const body of [order(dana.id, 10), { nonsense: true }]) {
        const reply = await debit(body, { auth });
        expect(reply.statusCode, String(auth)).toBe(401);
        expect(reply.headers['www-authenticate']).toMatch(/^Basic realm="partner-api"/);
        expect(reply.json()).toMatchObject({
          errorCode: ErrorCode.partnerUnauthorized,
          responseMessage: 'catalog.error.partnerCredentials',
        });
      }
    }
    expect((await participant('demo')).balance).toBe(dana.balance);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it("keeps another client's partner away from this client's participants", async () => {
    const dana = await participant('demo');
    const globexAuth = basic('globex-shop', 'globex-shop-secret-0123456789');
    // Its credentials mean nothing on Acme's origin...
    expect((await debit(order(dana.id, 10), { auth: globexAuth })).statusCode).toBe(401);
    // ...and on its own origin Dana is nobody.
    const reply = await debit(order(dana.id, 10), { auth: globexAuth, origin: OTHER_ORIGIN });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.participantNotFound });
    // Acme's own partner cannot reach Globex's participant either.
    const gina = await participant('demo', OTHER_CLIENT_ID);
    expect((await debit(order(gina.id, 10))).statusCode).toBe(404);
    expect((await debit(order(gina.id, 10), { origin: OTHER_ORIGIN })).statusCode).toBe(401);
    expect((await participant('demo')).balance).toBe(dana.balance);
    expect((await participant('demo', OTHER_CLIENT_ID)).balance).toBe(gina.balance);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses bad input with 400', async () => {
    const dana = await participant('demo');
    const bad: unknown[] = [
      order(dana.id, 0),
      order(dana.id, -5),
      order(dana.id, 1.5),
      order(dana.id, 10, { points: '10' }),
      order(dana.id, 10, { orderId: 'x'.repeat(101) }),
      order(dana.id, 10, { orderId: 'has spaces' }),
      order(dana.id, 10, { description: '' }),
      order(dana.id, 10, { description: 'd'.repeat(201) }),
      order(dana.id, 10, { participantId: '' }),
      order(dana.id, 10, { unexpected: 'field' }),
      { orderId: 'o-1', points: 10, description: 'x' },
    ];
    for (const body of bad) {
      const reply = await debit(body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation });
    }
    expect((await debit(undefined, { raw: '{"orderId": ' })).statusCode).toBe(400);
    expect((await participant('demo')).balance).toBe(dana.balance);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('debits two simultaneous copies of one order once', async () => {
    const dana = await participant('demo');
    const body = order(dana.id, 700);
    const replies = await Promise.all(Array.from({ length: 4 }, () => debit(body)));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const first = replies[0]?.json();
    for (const reply of replies) expect(reply.json()).toEqual(first);
    expect(await entriesFor(body.orderId)).toHaveLength(1);
    expect((await participant('demo')).balance).toBe((dana.balance ?? 0) - 700);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('lets only one of two simultaneous orders through when the balance covers one', async () => {
    const sam = await participant('spent');
    // Give Sam 1,000 points the proper way, then two orders of 600 race.
    await t.database.db.transaction().execute(async (trx) => {
      await appendLedgerEntry(trx, {
        clientId: 'acme',
        participantId: sam.id,
        occurredAt: new Date().toISOString(),
        description: 'Test award',
        amount: 1000,
        kind: 'award',
      });
    });
    const replies = await Promise.all([debit(order(sam.id, 600)), debit(order(sam.id, 600))]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await participant('spent')).balance).toBe(400);
    await expectLedgerMatchesBalances(t.database.db);
  });
});
