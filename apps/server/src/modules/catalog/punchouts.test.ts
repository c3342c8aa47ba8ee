import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { CLIENT_HEADER, ErrorCode, PARTNER_API_BASE, partnerPaths, type PunchoutReply } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_ORIGIN, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET } from '../../db/seed/demo-catalog.ts';
import { hashSessionId } from '../sessions/session-id.ts';
import { partnerSecretHash } from './partner-service.ts';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
const DEMO_AUTH = basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET);
const SECOND_PARTNER = { id: 'acme-second-shop', secret: 'acme-second-shop-secret-0123456789' };
const GLOBEX_PARTNER = { id: 'globex-shop', secret: 'globex-shop-secret-0123456789' };

/** docs/decisions/043: a punch-out link opens the catalog once, and only while its portal session lives. */
describe.each(dialects)('redeeming punch-out links on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-punchouts-'));
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
    const now = new Date().toISOString();
    await t.database.db
      .insertInto('catalog_partners')
      .values([
        {
          id: SECOND_PARTNER.id,
          client_id: 'acme',
          name: 'Second shop',
          secret_hash: partnerSecretHash(SECOND_PARTNER.secret),
          created_at: now,
        },
        {
          id: GLOBEX_PARTNER.id,
          client_id: OTHER_CLIENT_ID,
          name: 'Globex shop',
          secret_hash: partnerSecretHash(GLOBEX_PARTNER.secret),
          created_at: now,
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A signed-in participant's fresh link: its session and the token's jti and sub. */
  async function link(username = 'demo', sessionId?: string) {
    const session = sessionId ?? (await t.login(username)).sessionId;
    const reply = await t.api('GET', '/user/catalog-url/merchandise', { session });
    expect(reply.statusCode).toBe(200);
    const claims = decodeJwt(new URL(reply.json<{ catalogUrl: string }>().catalogUrl).searchParams.get('token') ?? '');
    return { sessionId: session, jti: claims.jti ?? '', sub: claims.sub ?? '' };
  }

  function redeem(jti: string, options: { auth?: string | null; origin?: string } = {}) {
    const auth = options.auth === undefined ? DEMO_AUTH : options.auth;
    return t.app.inject({
      method: 'POST',
      url: `${PARTNER_API_BASE}${partnerPaths.punchout(jti)}`,
      headers: { [CLIENT_HEADER]: options.origin ?? DEMO_ORIGIN, ...(auth === null ? {} : { authorization: auth }) },
    });
  }

  const redeemedAt = async (jti: string) =>
    (await t.database.db.selectFrom('catalog_punchouts').select('redeemed_at').where('jti', '=', jti).executeTakeFirstOrThrow())
      .redeemed_at;

  it('records each link with the session that asked for it, not yet redeemed', async () => {
    const { sessionId, jti, sub } = await link();
    const row = await t.database.db.selectFrom('catalog_punchouts').selectAll().where('jti', '=', jti).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      client_id: 'acme',
      partner_id: DEMO_CATALOG_PARTNER_ID,
      participant_id: sub,
      offering: 'merchandise',
      session_hash: hashSessionId(sessionId),
      redeemed_at: null,
    });
    expect(Date.parse(row.expires_at) - Date.parse(row.issued_at)).toBe(300_000);
  });

  it('redeems a link once: the second use is refused (409) before and after signing out', async () => {
    const { sessionId, jti, sub } = await link();
    const first = await redeem(jti);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json<PunchoutReply>()).toEqual({
      punchoutId: jti,
      participantId: sub,
      offering: 'merchandise',
      redeemedAt: expect.any(String),
    });
    const stamped = await redeemedAt(jti);
    expect(stamped).toBe(first.json<PunchoutReply>().redeemedAt);

    const second = await redeem(jti);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ errorCode: ErrorCode.punchoutUsed, responseMessage: 'catalog.error.punchoutUsed' });

    expect((await t.api('GET', '/logout', { session: sessionId })).statusCode).toBe(204);
    const afterSignOut = await redeem(jti);
    expect(afterSignOut.statusCode).toBe(409);
    expect(afterSignOut.json()).toMatchObject({ errorCode: ErrorCode.punchoutUsed });
    expect(await redeemedAt(jti)).toBe(stamped);
  });

  it('refuses a link whose session was signed out before it was used (410), and leaves it unredeemed', async () => {
    const { sessionId, jti } = await link();
    expect((await t.api('GET', '/logout', { session: sessionId })).statusCode).toBe(204);
    const reply = await redeem(jti);
    expect(reply.statusCode).toBe(410);
    expect(reply.json()).toMatchObject({
      errorCode: ErrorCode.punchoutSessionEnded,
      responseMessage: 'catalog.error.punchoutSessionEnded',
    });
    expect(await redeemedAt(jti)).toBeNull();
  });

  it('refuses a link whose session expired, idle or at its absolute limit, or was ended by an operator (410)', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const idle = await link();
    await t.database.db
      .updateTable('sessions')
      .set({ idle_expires_at: past })
      .where('id_hash', '=', hashSessionId(idle.sessionId))
      .execute();
    const absolute = await link();
    await t.database.db
      .updateTable('sessions')
      .set({ absolute_expires_at: past })
      .where('id_hash', '=', hashSessionId(absolute.sessionId))
      .execute();
    const ended = await link();
    await t.database.db.deleteFrom('sessions').where('id_hash', '=', hashSessionId(ended.sessionId)).execute();
    for (const { jti } of [idle, absolute, ended]) {
      const reply = await redeem(jti);
      expect(reply.statusCode).toBe(410);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.punchoutSessionEnded });
      expect(await redeemedAt(jti)).toBeNull();
    }
  });

  it('ties a link to its own session: signing out elsewhere leaves it usable', async () => {
    const other = await t.login('demo');
    const { jti } = await link();
    expect((await t.api('GET', '/logout', { session: other.sessionId })).statusCode).toBe(204);
    expect((await redeem(jti)).statusCode).toBe(200);
  });

  it('refuses an expired link (410) even while its session lives', async () => {
    const { jti } = await link();
    await t.database.db
      .updateTable('catalog_punchouts')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('jti', '=', jti)
      .execute();
    const reply = await redeem(jti);
    expect(reply.statusCode).toBe(410);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.punchoutExpired, responseMessage: 'catalog.error.punchoutExpired' });
    expect(await redeemedAt(jti)).toBeNull();
  });

  it('accepts exactly one of 20 simultaneous uses of one link', async () => {
    const { jti } = await link();
    const replies = await Promise.all(Array.from({ length: 20 }, () => redeem(jti)));
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const reply of replies.filter((r) => r.statusCode === 409))
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.punchoutUsed });
    expect(await redeemedAt(jti)).toEqual(expect.any(String));
  });

  it("answers 404 for an unknown link, another partner's and another client's, and redeems nothing", async () => {
    const { jti } = await link();
    for (const [what, reply] of [
      ['unknown', await redeem(randomUUID())],
      ['another partner of the client', await redeem(jti, { auth: basic(SECOND_PARTNER.id, SECOND_PARTNER.secret) })],
      [
        "another client's partner on its own origin",
        await redeem(jti, { auth: basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret), origin: OTHER_ORIGIN }),
      ],
    ] as const) {
      expect(reply.statusCode, what).toBe(404);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.punchoutNotFound, responseMessage: 'catalog.error.punchoutNotFound' });
    }
    expect(await redeemedAt(jti)).toBeNull();
    // Still good for its own catalog.
    expect((await redeem(jti)).statusCode).toBe(200);
  });

  it('refuses missing or wrong credentials with 401 and a Basic challenge, and redeems nothing', async () => {
    const { jti } = await link();
    for (const auth of [null, basic(DEMO_CATALOG_PARTNER_ID, 'wrong-secret'), basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret)]) {
      const reply = await redeem(jti, { auth });
      expect(reply.statusCode, String(auth)).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Basic realm="partner-api"/);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.partnerUnauthorized });
    }
    // Credentials come before the parameters: a stranger's malformed call is a 401 too.
    expect((await redeem('not a jti', { auth: null })).statusCode).toBe(401);
    const malformed = await redeem('not a jti');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ errorCode: ErrorCode.validation });
    expect(await redeemedAt(jti)).toBeNull();
  });

  it('keeps rows a day past their expiry, then prunes them when the next link is made', async () => {
    const { sessionId, jti } = await link();
    await t.database.db
      .updateTable('catalog_punchouts')
      .set({ expires_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where('jti', '=', jti)
      .execute();
    const recent = await link('demo', sessionId);
    await t.database.db
      .updateTable('catalog_punchouts')
      .set({ expires_at: new Date(Date.now() - 23 * 3_600_000).toISOString() })
      .where('jti', '=', recent.jti)
      .execute();
    await link('demo', sessionId);
    const left = await t.database.db.selectFrom('catalog_punchouts').select('jti').where('jti', 'in', [jti, recent.jti]).execute();
    expect(left.map((r) => r.jti)).toEqual([recent.jti]);
  });
});
