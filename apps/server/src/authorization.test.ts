import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HTTPMethods } from 'fastify';
import { CLIENT_HEADER, PARTNER_API_BASE, apiPaths, contentKeys, partnerPaths, rulesKey } from '@rewards/contract';
import { dialects } from '../test/databases.ts';
import { expectLedgerMatchesBalances } from '../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID, OTHER_PASSWORD } from '../test/other-client.ts';
import { createTestApp, DEMO_ORIGIN, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../test/test-app.ts';
import { DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET } from './db/seed/demo-catalog.ts';
import { partnerSecretHash } from './modules/catalog/partner-service.ts';
import { normaliseOtsCode, otsCodeHash } from './modules/ots/code.ts';
import { insertOtsCodes, newOtsCodeRows } from './modules/ots/store.ts';
import { issueLaunchToken } from './modules/launch-as/service.ts';

/**
 * Issue 5, section 8: who may call what. One table, every endpoint of the issue (and the signed-in
 * ones it builds on) against every kind of caller; one test runs every cell and compares the
 * whole observed grid with the expected one, then checks that the refusals changed nothing.
 */

/** The callers of the portal's API. */
const ACTORS = ['anonymous', 'participant', 'otherParticipant', 'admin', 'otherClient', 'otherClientOwnOrigin'] as const;
type Actor = (typeof ACTORS)[number];
/** The callers of the partner API (its own columns). */
const PARTNER_ACTORS = ['noCredentials', 'wrongSecret', 'otherClientsPartner', 'rightPartner'] as const;
type PartnerActor = (typeof PARTNER_ACTORS)[number];

/**
 * A row: the expected status per caller; a caller the row does not name is not run for it.
 * `otherParticipantActsOn` says whose data `spent` asks for: demo's where the request names a
 * user (then it must be refused), else its own (then it is simply a participant, like demo).
 */
type Row = { endpoint: string; otherParticipantActsOn?: string } & Partial<Record<Actor | PartnerActor, number>>;

const RULES_PROGRAM = 'Sales Incentive 2026'; // demo's program; spent is not in it
const NEW_PASSWORD = 'Rewards-2027?';
const DEBIT_POINTS = 25;
/** One fresh code per caller of POST ots/redeem, so no cell depends on another or on the demo's codes. */
const OTS_CODES: Record<Exclude<Actor, 'otherClientOwnOrigin'>, { code: string; value: number }> = {
  anonymous: { code: 'AUTH-ANYM', value: 11 },
  participant: { code: 'AUTH-PART', value: 13 },
  otherParticipant: { code: 'AUTH-WRNG', value: 17 },
  admin: { code: 'AUTH-ADMN', value: 19 },
  otherClient: { code: 'AUTH-GEXC', value: 23 },
};

const OWN = 'own data (= participant)';
const expected: Row[] = [
  {
    endpoint: 'GET user/account/statement?username=demo',
    otherParticipantActsOn: "demo's",
    anonymous: 401,
    participant: 200,
    otherParticipant: 403,
    admin: 200,
    otherClient: 401,
  },
  {
    endpoint: 'POST ots/redeem {userName: demo}',
    otherParticipantActsOn: "demo's",
    anonymous: 401,
    participant: 200,
    otherParticipant: 403,
    admin: 403,
    otherClient: 401,
  },
  {
    endpoint: 'GET user/catalog-url/merchandise',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 403,
    otherClient: 401,
    otherClientOwnOrigin: 403,
  },
  {
    endpoint: 'GET user/catalog-url/experiences',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 403,
    otherClient: 401,
    otherClientOwnOrigin: 403,
  },
  // Issue 9: whatever would spend or change the participant's account is refused to an administrator (admin).
  {
    endpoint: 'POST user/locale',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 403,
    otherClient: 401,
  },
  // Issue 19: what expires when is the caller's own (no parameter names anyone); reading it changes nothing.
  {
    endpoint: 'GET user/points/expiring',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
    otherClientOwnOrigin: 200,
  },
  {
    endpoint: 'GET user/program-names',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
  },
  {
    endpoint: 'PUT user/acknowledge-privacy-notice',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 403,
    otherClient: 401,
  },
  {
    endpoint: `GET cmmo/key/honeycombSystem/rules.${RULES_PROGRAM}`,
    otherParticipantActsOn: "demo's program",
    anonymous: 401,
    participant: 200,
    otherParticipant: 403,
    admin: 200,
    otherClient: 401,
    otherClientOwnOrigin: 403,
  },
  {
    endpoint: 'GET cmmo/key/honeycombSystem/faqs',
    otherParticipantActsOn: OWN,
    anonymous: 200,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
    otherClientOwnOrigin: 404,
  },
  {
    endpoint: 'GET cmmo/key/honeycombSystem/privacyPolicy',
    otherParticipantActsOn: OWN,
    anonymous: 200,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
    otherClientOwnOrigin: 404,
  },
  {
    endpoint: 'GET cmmo/key/honeycombSystem/privacyNotice',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
    otherClientOwnOrigin: 404,
  },
  // An administrator may write to support for the participant (the request is flagged admin_as_user, docs/decisions/025).
  {
    endpoint: 'POST contactUs',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
  },
  {
    endpoint: 'GET user',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 200,
    otherClient: 401,
  },
  // The participant's own change runs last of all: it ends demo's other sessions (the admin's).
  {
    endpoint: 'PUT user/password',
    otherParticipantActsOn: OWN,
    anonymous: 401,
    participant: 200,
    otherParticipant: 200,
    admin: 403,
    otherClient: 401,
  },
  { endpoint: 'POST /api/partner/v1/debits (demo)', noCredentials: 401, wrongSecret: 401, otherClientsPartner: 401, rightPartner: 200 },
];

/** The grid as a markdown table: shown whole in a failure, not only the diff's few lines. */
function grid(rows: Row[]): string {
  const columns = ['endpoint', 'otherParticipantActsOn', ...ACTORS, ...PARTNER_ACTORS] as const;
  const line = (cells: readonly unknown[]) => `| ${cells.join(' | ')} |`;
  return ['', line(columns), line(columns.map(() => '---')), ...rows.map((row) => line(columns.map((c) => row[c] ?? '—')))].join('\n');
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
const GLOBEX_PARTNER = { id: 'globex-shop', secret: 'globex-shop-secret-0123456789' };

describe.each(dialects)('the authorization table of issue 5 on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  const session: Partial<Record<Actor, string>> = {};
  let demoId = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-authz-'));
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
    const db = t.database.db;
    await insertOtsCodes(db, newOtsCodeRows('acme', Object.values(OTS_CODES), new Date()));
    await db
      .insertInto('catalog_partners')
      .values({
        id: GLOBEX_PARTNER.id,
        client_id: OTHER_CLIENT_ID,
        name: 'Globex shop',
        secret_hash: partnerSecretHash(GLOBEX_PARTNER.secret),
        created_at: new Date().toISOString(),
      })
      .execute();
    // Sessions once (argon2id sign-ins are slow). The administrator's is a real launch-as of demo
    // (issue 9): a link issued for her, opened on her client's site.
    const demo = await db
      .selectFrom('participants')
      .selectAll()
      .where('client_id', '=', 'acme')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const { token } = await db.transaction().execute((trx) =>
      issueLaunchToken(trx, {
        participant: demo,
        reason: 'authorization table',
        issuedBy: 'support',
        issuedVia: 'cli',
        actorKind: 'operator',
        issuedFrom: 'test',
        origin: DEMO_ORIGIN,
      }),
    );
    session.admin = (await t.api('POST', apiPaths.launchAs, { body: { token } })).json<{ sessionId: string }>().sessionId;
    const [dana, sam, gina] = await Promise.all([t.login('demo'), t.login('spent'), t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN)]);
    session.participant = dana.sessionId;
    session.otherParticipant = sam.sessionId;
    session.otherClient = gina.sessionId;
    session.otherClientOwnOrigin = gina.sessionId;
    demoId = dana.userId;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One cell: the row's request as this caller makes it. */
  async function call(endpoint: string, actor: Actor): Promise<number> {
    const as = { session: session[actor], origin: actor === 'otherClientOwnOrigin' ? OTHER_ORIGIN : DEMO_ORIGIN };
    const send = async (method: HTTPMethods, path: string, body?: unknown) => (await t.api(method, path, { ...as, body })).statusCode;
    const content = (key: string) => send('GET', apiPaths.contentKey(key));
    switch (endpoint) {
      case 'GET user/account/statement?username=demo':
        return send('GET', apiPaths.statement('demo', 'en-US'));
      case 'POST ots/redeem {userName: demo}': {
        if (actor === 'otherClientOwnOrigin') throw new Error('not a cell of this table');
        return send('POST', apiPaths.otsRedeem, { code: OTS_CODES[actor].code, userName: 'demo' });
      }
      case 'GET user/catalog-url/merchandise':
        return send('GET', apiPaths.catalogUrl('merchandise'));
      case 'GET user/catalog-url/experiences':
        return send('GET', apiPaths.catalogUrl('experiences'));
      case 'POST user/locale':
        // Everyone's current language: an allowed call changes nothing another cell reads.
        return send('POST', apiPaths.userLocale, { locale: { code: 'en-US' } });
      case 'GET user/points/expiring':
        return send('GET', apiPaths.expirySchedule);
      case 'GET user/program-names':
        return send('GET', apiPaths.programNames);
      case 'PUT user/acknowledge-privacy-notice':
        return send('PUT', apiPaths.acknowledgePrivacyNotice);
      case `GET cmmo/key/honeycombSystem/rules.${RULES_PROGRAM}`:
        return content(rulesKey(RULES_PROGRAM));
      case 'GET cmmo/key/honeycombSystem/faqs':
        return content(contentKeys.faqs);
      case 'GET cmmo/key/honeycombSystem/privacyPolicy':
        return content(contentKeys.privacyPolicy);
      case 'GET cmmo/key/honeycombSystem/privacyNotice':
        return content(contentKeys.privacyNotice);
      case 'POST contactUs':
        return send('POST', apiPaths.contactUs, { topic: 'other', subject: 'Authorization table', message: `Sent as ${actor}` });
      case 'GET user':
        return send('GET', apiPaths.user);
      case 'PUT user/password':
        // The right current password for demo and spent alike: only the caller's role decides.
        return send('PUT', apiPaths.userPassword, { oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD });
      default:
        throw new Error(`no request for ${endpoint}`);
    }
  }

  /** A debit of demo's points by a catalog partner, as the caller authenticates. */
  async function debit(actor: PartnerActor): Promise<number> {
    const authorization = {
      noCredentials: undefined,
      wrongSecret: basic(DEMO_CATALOG_PARTNER_ID, `${DEMO_CATALOG_PARTNER_SECRET}-wrong`),
      otherClientsPartner: basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret),
      rightPartner: basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET),
    }[actor];
    const reply = await t.app.inject({
      method: 'POST',
      url: `${PARTNER_API_BASE}${partnerPaths.debits}`,
      headers: { 'content-type': 'application/json', [CLIENT_HEADER]: DEMO_ORIGIN, ...(authorization ? { authorization } : {}) },
      payload: JSON.stringify({ orderId: `authz-${actor}`, participantId: demoId, points: DEBIT_POINTS, description: 'Travel mug' }),
    });
    return reply.statusCode;
  }

  const balances = async () =>
    (
      await t.database.db
        .selectFrom('participants')
        .select(['client_id', 'username', 'balance'])
        .orderBy('client_id')
        .orderBy('username')
        .execute()
    ).map((p) => ({ who: `${p.client_id}/${p.username}`, balance: p.balance }));
  const demoPasswordHash = async () =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('password_hash')
        .where('client_id', '=', 'acme')
        .where('username', '=', 'demo')
        .executeTakeFirstOrThrow()
    ).password_hash;

  it('answers every caller of every endpoint as expected, and the refusals change nothing', async () => {
    const balancesBefore = await balances();
    const hashBefore = await demoPasswordHash();

    const observed: Row[] = expected.map((row) => ({
      endpoint: row.endpoint,
      ...(row.otherParticipantActsOn ? { otherParticipantActsOn: row.otherParticipantActsOn } : {}),
    }));
    const deferred: Array<() => Promise<void>> = [];
    for (const [index, row] of expected.entries()) {
      const cells = observed[index] as Row;
      for (const actor of ACTORS) {
        if (row[actor] === undefined) continue;
        const run = async () => {
          cells[actor] = await call(row.endpoint, actor);
        };
        // demo's own password change ends her other sessions, the admin's among them: last.
        if (row.endpoint === 'PUT user/password' && actor === 'participant') deferred.push(run);
        else await run();
      }
      for (const actor of PARTNER_ACTORS) if (row[actor] !== undefined) cells[actor] = await debit(actor);
    }
    const hashAfterRefusals = await demoPasswordHash();
    for (const run of deferred) await run();

    expect(observed, `observed:${grid(observed)}`).toEqual(expected);

    // Points moved only by the allowed calls: demo's code, and the right partner's debit.
    const demoDelta = OTS_CODES.participant.value - DEBIT_POINTS;
    expect(await balances()).toEqual(
      balancesBefore.map((b) => (b.who === 'acme/demo' ? { ...b, balance: (b.balance ?? 0) + demoDelta } : b)),
    );
    await expectLedgerMatchesBalances(t.database.db);
    const codes = await t.database.db.selectFrom('ots_codes').select(['code_hash', 'status']).where('client_id', '=', 'acme').execute();
    const statusOf = (code: string) => codes.find((c) => c.code_hash === otsCodeHash(normaliseOtsCode(code)))?.status;
    expect(Object.fromEntries(Object.entries(OTS_CODES).map(([actor, c]) => [actor, statusOf(c.code)]))).toEqual({
      anonymous: 'unused',
      participant: 'redeemed',
      otherParticipant: 'unused',
      admin: 'unused',
      otherClient: 'unused',
    });

    // The refused password changes left demo's password alone; her own change took.
    expect(hashAfterRefusals).toBe(hashBefore);
    expect(await demoPasswordHash()).not.toBe(hashBefore);

    // Everything the administrator opened, refusals included, is in the audit log (method and route only).
    const opened = await t.database.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'launch-as.open')
      .execute();
    const refused = opened
      .map((e) => JSON.parse(e.details) as { method: string; route: string; status: number })
      .filter((d) => d.status === 403);
    expect(refused.map((d) => `${d.method} ${d.route}`).sort()).toEqual([
      'GET /api/v1.0/user/catalog-url/:type',
      'GET /api/v1.0/user/catalog-url/:type',
      'POST /api/v1.0/ots/redeem',
      'POST /api/v1.0/user/locale',
      'PUT /api/v1.0/user/acknowledge-privacy-notice',
      'PUT /api/v1.0/user/password',
    ]);
    expect(new Set(opened.map((e) => e.actor))).toEqual(new Set(['support']));

    // Contact requests only from the callers that were allowed to write.
    const contacts = await t.database.db
      .selectFrom('contact_requests')
      .select(['client_id', 'username', 'admin_as_user', 'message'])
      .execute();
    const byMessage = (a: { message: string }, b: { message: string }) => (a.message < b.message ? -1 : 1);
    expect(contacts.map((c) => ({ ...c, admin_as_user: Number(c.admin_as_user) })).sort(byMessage)).toEqual([
      { client_id: 'acme', username: 'demo', admin_as_user: 1, message: 'Sent as admin' },
      { client_id: 'acme', username: 'spent', admin_as_user: 0, message: 'Sent as otherParticipant' },
      { client_id: 'acme', username: 'demo', admin_as_user: 0, message: 'Sent as participant' },
    ]);
  });
});
