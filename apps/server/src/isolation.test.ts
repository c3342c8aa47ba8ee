import { randomUUID } from 'node:crypto';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_API_BASE,
  API_DOCUMENT_PATH,
  CLIENT_HEADER,
  JWKS_PATH,
  PARTNER_API_BASE,
  SESSION_HEADER,
  adminPaths,
  apiPaths,
  contentKeys,
  partnerPaths,
  rulesKey,
  ssoPaths,
} from '@rewards/contract';
import { dialects } from '../test/databases.ts';
import { expectLedgerMatchesBalances } from '../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID, OTHER_PASSWORD } from '../test/other-client.ts';
import { createTestApp, DEMO_ORIGIN, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../test/test-app.ts';
import { DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET } from './db/seed/demo-catalog.ts';
import { hashResetToken, newResetToken } from './modules/account/reset-token.ts';
import { partnerSecretHash } from './modules/catalog/partner-service.ts';
import { appendLedgerEntry } from './modules/ledger/store.ts';
import { createAdminKey } from './modules/launch-as/admin-keys.ts';
import { issueLaunchToken } from './modules/launch-as/service.ts';
import { withSearchKeys } from './modules/participants/search-keys.ts';
import { findParticipantByUsername } from './modules/participants/store.ts';
import { insertOtsCodes, newOtsCodeRows } from './modules/ots/store.ts';

/**
 * Issue 8, section 2: two programs on one installation share nothing. Every endpoint of the API
 * document is called with something of the other client (its session, one of its usernames,
 * codes, punch-out links, reset links, e-mail addresses) and must refuse it, and no reply may
 * carry the other client's data. The endpoints come from the document, so a new one without a
 * row in SAMPLES fails the first test. (Who may call what within one client:
 * authorization.test.ts.)
 */

/** Acme's demo (Dana) and Globex's demo (Gina) share the username "demo". */
const GLOBEX_ONLY = { username: 'gonly', accountNumber: '9000002', lastName: 'Globexonly', entry: 'Prime Globex secrète' };
const GLOBEX_PENDING = { username: 'gpending', accountNumber: '9000003', lastName: 'Globexpending' };
const ACME_CODE = { code: 'ISOL-ACME-0001', value: 31 };
const ACME_RULES_PROGRAM = 'Sales Incentive 2026';
const GLOBEX_PARTNER = { id: 'globex-shop', secret: 'globex-shop-secret-0123456789' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;

/** Endpoints whose reply is the same for every client: nothing of a client to isolate. */
const CLIENT_INDEPENDENT = [`GET ${API_DOCUMENT_PATH}`, `GET ${JWKS_PATH}`];
/**
 * The staff console's API takes no client-id: staff belong to no client, and which clients each
 * may see is its role table's (modules/staff/authorization.test.ts: own client and another).
 */
const isConsole = (operation: string) => operation.includes(' /api/console/');
/**
 * Nor does the program API: its client is the bearer key's (decision 085); each route is called
 * with another client's key in its route table (modules/program-api/routes-table.test.ts).
 */
const isProgramApi = (operation: string) => operation.includes(' /api/program/');

type Client = 'acme' | 'globex';
/** One request made with the other client's thing, and the statuses that refuse it (or, for a 200, what must hold). */
interface Attack {
  what: string;
  reply: LightMyRequestResponse;
  /** The client whose origin was called: the other client's data must not be in the reply. */
  at: Client;
  status: number[];
}

interface Context {
  t: TestApp;
  acmeSession: string;
  globexSession: string;
  globexResetToken: string;
  acmeDemoId: string;
  call(
    method: HTTPMethods,
    url: string,
    options: { at: Client; session?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
}

/**
 * Per endpoint (METHOD and the document's path): `request` is a well-formed call as the client
 * of `at` makes it (used with the other client's session, and without a session, to hold the
 * document's security to the routes); `attacks` add what the endpoint takes of the other client.
 */
interface Sample {
  request(ctx: Context, as: { at: Client; session?: string }): Promise<LightMyRequestResponse>;
  attacks?(ctx: Context): Promise<Attack[]>;
}

const v1 = (path: string) => `/api/v1.0${path}`;
const refused = [401, 403, 404];
/** The single sign-on routes are browser navigations: the client is the Host, not the client-id header. */
const hostOf = (at: Client) => ({ host: new URL(at === 'acme' ? DEMO_ORIGIN : OTHER_ORIGIN).host });

/** A support desk's key scoped to acme (made once), and a launch token for acme's demo. */
const acmeAdminKeys = new WeakMap<TestApp, string>();
async function adminKeyOfAcme(c: Context): Promise<string> {
  const made =
    acmeAdminKeys.get(c.t) ??
    (
      await c.t.database.db
        .transaction()
        .execute((trx) => createAdminKey(trx, { name: 'isolation-acme-desk', clientId: 'acme', createdBy: 'test', origin: 'test' }))
    ).key;
  acmeAdminKeys.set(c.t, made);
  return made;
}
async function launchTokenOfAcme(c: Context): Promise<string> {
  const participant = await findParticipantByUsername(c.t.database.db, 'acme', 'demo');
  if (!participant) throw new Error('acme has no demo');
  const issued = await c.t.database.db.transaction().execute((trx) =>
    issueLaunchToken(trx, {
      participant,
      reason: 'isolation test',
      issuedBy: 'test',
      issuedVia: 'cli',
      actorKind: 'operator',
      issuedFrom: 'test',
      origin: DEMO_ORIGIN,
    }),
  );
  return issued.token;
}

const SAMPLES: Record<string, Sample> = {
  [`GET ${v1(ssoPaths.login)}`]: {
    request: (c, as) => c.call('GET', v1(ssoPaths.login), { ...as, headers: hostOf(as.at) }),
    attacks: async (c) => [
      {
        what: 'sign-in started at globex (no SSO there)',
        at: 'globex',
        status: [302],
        reply: await c.call('GET', v1(ssoPaths.login), { at: 'globex', headers: hostOf('globex') }),
      },
    ],
  },
  [`GET ${v1(ssoPaths.callback)}`]: {
    request: (c, as) => c.call('GET', `${v1(ssoPaths.callback)}?code=x&state=y`, { ...as, headers: hostOf(as.at) }),
    attacks: async (c) => [
      {
        what: 'a callback at globex with a state nobody issued',
        at: 'globex',
        status: [302],
        reply: await c.call('GET', `${v1(ssoPaths.callback)}?code=x&state=${'s'.repeat(43)}`, { at: 'globex', headers: hostOf('globex') }),
      },
    ],
  },
  [`GET ${v1(ssoPaths.logout)}`]: {
    request: (c, as) => c.call('GET', v1(ssoPaths.logout), { ...as, headers: hostOf(as.at) }),
    attacks: async (c) => [
      {
        what: "acme's session sent to globex's SSO logout",
        at: 'globex',
        status: [302],
        reply: await c.call('GET', v1(ssoPaths.logout), { at: 'globex', session: c.acmeSession, headers: hostOf('globex') }),
      },
    ],
  },
  [`POST ${v1(apiPaths.launchAs)}`]: {
    request: (c, as) => c.call('POST', v1(apiPaths.launchAs), { ...as, body: { token: 'A'.repeat(43) } }),
    attacks: async (c) => [
      {
        what: "acme's launch token used at globex",
        at: 'globex',
        status: [400],
        reply: await c.call('POST', v1(apiPaths.launchAs), { at: 'globex', body: { token: await launchTokenOfAcme(c) } }),
      },
    ],
  },
  [`POST ${ADMIN_API_BASE}${adminPaths.launchTokens}`]: {
    request: async (c, as) =>
      c.call('POST', `${ADMIN_API_BASE}${adminPaths.launchTokens}`, {
        ...as,
        headers: { authorization: `Bearer ${await adminKeyOfAcme(c)}` },
        body: { username: 'demo', reason: 'ticket 1' },
      }),
    attacks: async (c) => {
      const post = async (body: unknown) =>
        c.call('POST', `${ADMIN_API_BASE}${adminPaths.launchTokens}`, {
          at: 'globex',
          headers: { authorization: `Bearer ${await adminKeyOfAcme(c)}` },
          body,
        });
      return [
        {
          what: "acme's key naming globex",
          at: 'globex',
          status: [403],
          reply: await post({ username: 'demo', reason: 'ticket 2', client: OTHER_CLIENT_ID }),
        },
        {
          what: "acme's key asking for a globex-only participant",
          at: 'globex',
          status: [404],
          reply: await post({ username: GLOBEX_ONLY.username, reason: 'ticket 3' }),
        },
      ];
    },
  },
  [`GET ${v1(apiPaths.clientData)}`]: {
    request: (c, as) => c.call('GET', v1(apiPaths.clientData), as),
    attacks: async (c) => [
      { what: "acme's configuration", at: 'acme', status: [200], reply: await c.call('GET', v1(apiPaths.clientData), { at: 'acme' }) },
      {
        what: "globex's configuration",
        at: 'globex',
        status: [200],
        reply: await c.call('GET', v1(apiPaths.clientData), { at: 'globex' }),
      },
    ],
  },
  'GET /api/v1.0/viewConfig/bundle/{locale}': {
    request: (c, as) => c.call('GET', v1(apiPaths.bundle(as.at === 'acme' ? 'en-US' : 'fr-FR')), as),
    attacks: async (c) => [
      { what: "acme's French texts", at: 'acme', status: [200], reply: await c.call('GET', v1(apiPaths.bundle('fr-FR')), { at: 'acme' }) },
      {
        what: "acme's language at globex",
        at: 'globex',
        status: [400],
        reply: await c.call('GET', v1(apiPaths.bundle('en-US')), { at: 'globex' }),
      },
    ],
  },
  [`POST ${v1(apiPaths.login)}`]: {
    request: (c, as) =>
      c.call('POST', v1(apiPaths.login), {
        ...as,
        body: { username: 'demo', password: as.at === 'acme' ? DEMO_PASSWORD : OTHER_PASSWORD },
      }),
    attacks: async (c) => [
      {
        what: "globex's password at acme",
        at: 'acme',
        status: [401],
        reply: await c.call('POST', v1(apiPaths.login), { at: 'acme', body: { username: 'demo', password: OTHER_PASSWORD } }),
      },
      {
        what: 'a globex-only username at acme',
        at: 'acme',
        status: [401],
        reply: await c.call('POST', v1(apiPaths.login), { at: 'acme', body: { username: GLOBEX_ONLY.username, password: OTHER_PASSWORD } }),
      },
      {
        what: "acme's password at globex",
        at: 'globex',
        status: [401],
        reply: await c.call('POST', v1(apiPaths.login), { at: 'globex', body: { username: 'demo', password: DEMO_PASSWORD } }),
      },
    ],
  },
  [`GET ${v1(apiPaths.logout)}`]: {
    // A sample sign-out would end the session the other rows use: a throwaway one instead.
    request: async (c, as) => c.call('GET', v1(apiPaths.logout), { at: as.at, ...(as.session ? { session: 'x'.repeat(43) } : {}) }),
    attacks: async (c) => {
      const reply = await c.call('GET', v1(apiPaths.logout), { at: 'acme', session: c.globexSession });
      const stillSignedIn = await c.call('GET', v1(apiPaths.user), { at: 'globex', session: c.globexSession });
      return [
        { what: "globex's session signed out at acme", at: 'acme', status: [204], reply },
        { what: "…and globex's session still works at globex", at: 'globex', status: [200], reply: stillSignedIn },
      ];
    },
  },
  [`GET ${v1(apiPaths.user)}`]: { request: (c, as) => c.call('GET', v1(apiPaths.user), as) },
  [`POST ${v1(apiPaths.userLocale)}`]: {
    request: (c, as) =>
      c.call('POST', v1(apiPaths.userLocale), { ...as, body: { locale: { code: as.at === 'acme' ? 'en-US' : 'fr-FR' } } }),
  },
  [`GET ${v1(apiPaths.programNames)}`]: {
    request: (c, as) => c.call('GET', v1(apiPaths.programNames), as),
    attacks: async (c) => [
      {
        what: "globex's programs",
        at: 'globex',
        status: [200],
        reply: await c.call('GET', v1(apiPaths.programNames), { at: 'globex', session: c.globexSession }),
      },
    ],
  },
  [`GET ${v1(apiPaths.expirySchedule)}`]: {
    request: (c, as) => c.call('GET', v1(apiPaths.expirySchedule), as),
    attacks: async (c) => [
      {
        what: "globex's expiries",
        at: 'globex',
        status: [200],
        reply: await c.call('GET', v1(apiPaths.expirySchedule), { at: 'globex', session: c.globexSession }),
      },
    ],
  },
  [`PUT ${v1(apiPaths.acknowledgePrivacyNotice)}`]: { request: (c, as) => c.call('PUT', v1(apiPaths.acknowledgePrivacyNotice), as) },
  'GET /api/v1.0/user/account/statement': {
    request: (c, as) => c.call('GET', v1(apiPaths.statement('demo', 'en-US')), as),
    attacks: async (c) => [
      {
        what: "a globex-only username with acme's session",
        at: 'acme',
        status: refused,
        reply: await c.call('GET', v1(apiPaths.statement(GLOBEX_ONLY.username, 'en-US')), { at: 'acme', session: c.acmeSession }),
      },
      {
        what: "an acme-only username with globex's session",
        at: 'globex',
        status: refused,
        reply: await c.call('GET', v1(apiPaths.statement('bigspender', 'fr-FR')), { at: 'globex', session: c.globexSession }),
      },
    ],
  },
  [`POST ${v1(apiPaths.otsRedeem)}`]: {
    request: (c, as) => c.call('POST', v1(apiPaths.otsRedeem), { ...as, body: { code: 'NOPE-NOPE-NOPE', userName: 'demo' } }),
    attacks: async (c) => [
      {
        what: "acme's code redeemed by globex's participant",
        at: 'globex',
        status: [404],
        reply: await c.call('POST', v1(apiPaths.otsRedeem), {
          at: 'globex',
          session: c.globexSession,
          body: { code: ACME_CODE.code, userName: 'demo' },
        }),
      },
      {
        what: "a globex-only username with acme's session",
        at: 'acme',
        status: refused,
        reply: await c.call('POST', v1(apiPaths.otsRedeem), {
          at: 'acme',
          session: c.acmeSession,
          body: { code: ACME_CODE.code, userName: GLOBEX_ONLY.username },
        }),
      },
    ],
  },
  'GET /api/v1.0/user/catalog-url/{type}': {
    request: (c, as) => c.call('GET', v1(apiPaths.catalogUrl('merchandise')), as),
    attacks: async (c) => [
      {
        what: "globex's participant asks for acme's catalog",
        at: 'globex',
        status: [403],
        reply: await c.call('GET', v1(apiPaths.catalogUrl('merchandise')), { at: 'globex', session: c.globexSession }),
      },
    ],
  },
  [`PUT ${v1(apiPaths.userPassword)}`]: {
    request: (c, as) =>
      c.call('PUT', v1(apiPaths.userPassword), { ...as, body: { oldPassword: OTHER_PASSWORD, newPassword: 'Isolation-2027?' } }),
  },
  'GET /api/v1.0/cmmo/key/honeycombSystem/{key}': {
    request: (c, as) => c.call('GET', v1(apiPaths.contentKey(contentKeys.faqs)), as),
    attacks: async (c) => [
      {
        what: "acme's program rules with globex's session",
        at: 'globex',
        status: [403, 404],
        reply: await c.call('GET', v1(apiPaths.contentKey(rulesKey(ACME_RULES_PROGRAM))), { at: 'globex', session: c.globexSession }),
      },
      {
        what: "acme's FAQs at globex",
        at: 'globex',
        status: [404],
        reply: await c.call('GET', v1(apiPaths.contentKey(contentKeys.faqs)), { at: 'globex' }),
      },
    ],
  },
  [`POST ${v1(apiPaths.contactUs)}`]: {
    request: (c, as) =>
      c.call('POST', v1(apiPaths.contactUs), { ...as, body: { topic: 'other', subject: 'Isolation', message: 'From the other client' } }),
  },
  [`POST ${v1(apiPaths.activate)}`]: {
    request: (c, as) =>
      c.call('POST', v1(apiPaths.activate), {
        ...as,
        body: { characteristics: { accountNumber: '0000000', lastName: 'Nobody' }, password: 'Isolation-2027?' },
      }),
    attacks: async (c) => [
      {
        what: "a pending globex participant's details at acme",
        at: 'acme',
        status: [400, 403, 404],
        reply: await c.call('POST', v1(apiPaths.activate), {
          at: 'acme',
          body: {
            characteristics: { accountNumber: GLOBEX_PENDING.accountNumber, lastName: GLOBEX_PENDING.lastName },
            password: 'Isolation-2027?',
            acceptedPrivacyNoticeVersion: 1,
          },
        }),
      },
    ],
  },
  [`POST ${v1(apiPaths.forgotUsername)}`]: {
    request: (c, as) => c.call('POST', v1(apiPaths.forgotUsername), { ...as, body: { emailAddress: 'nobody@example.com' } }),
    attacks: async (c) => [
      {
        what: "globex's address at acme (same reply, no mail)",
        at: 'acme',
        status: [200],
        reply: await c.call('POST', v1(apiPaths.forgotUsername), { at: 'acme', body: { emailAddress: 'demo@globex.example' } }),
      },
    ],
  },
  [`POST ${v1(apiPaths.forgotPassword)}`]: {
    request: (c, as) =>
      c.call('POST', v1(apiPaths.forgotPassword), { ...as, body: { emailAddress: 'nobody@example.com', userName: 'nobody' } }),
    attacks: async (c) => [
      {
        what: "globex's username and address at acme (same reply, no mail)",
        at: 'acme',
        status: [200],
        reply: await c.call('POST', v1(apiPaths.forgotPassword), {
          at: 'acme',
          body: { emailAddress: 'demo@globex.example', userName: 'demo' },
        }),
      },
    ],
  },
  [`POST ${v1(apiPaths.savePassword)}`]: {
    request: (c, as) =>
      c.call('POST', v1(apiPaths.savePassword), { ...as, body: { passwordGuid: newResetToken(), password: 'Isolation-2027?' } }),
    attacks: async (c) => [
      {
        what: "globex's reset link used at acme",
        at: 'acme',
        status: [400, 404, 410],
        reply: await c.call('POST', v1(apiPaths.savePassword), {
          at: 'acme',
          body: { passwordGuid: c.globexResetToken, password: 'Isolation-2027?' },
        }),
      },
    ],
  },
  [`POST ${PARTNER_API_BASE}${partnerPaths.debits}`]: {
    request: (c, as) =>
      c.call('POST', `${PARTNER_API_BASE}${partnerPaths.debits}`, {
        at: as.at,
        headers: {
          authorization:
            as.at === 'acme'
              ? basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET)
              : basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret),
        },
        body: { orderId: `isolation-${randomUUID()}`, participantId: 'nobody', points: 1, description: 'Isolation' },
      }),
    attacks: async (c) => {
      // The participant an acme punch-out link names (its token's sub), debited through globex.
      const link = (await c.call('GET', v1(apiPaths.catalogUrl('merchandise')), { at: 'acme', session: c.acmeSession })).json<{
        catalogUrl: string;
      }>().catalogUrl;
      const token = new URL(link).searchParams.get('token') ?? '';
      const { sub } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string };
      expect(sub).toBe(c.acmeDemoId);
      const debit = (partner: string) => ({
        at: 'globex' as const,
        headers: { authorization: partner },
        body: { orderId: `isolation-${randomUUID()}`, participantId: sub, points: 5, description: 'Travel mug' },
      });
      return [
        {
          what: "acme's link, globex's partner",
          at: 'globex',
          status: [404],
          reply: await c.call('POST', `${PARTNER_API_BASE}${partnerPaths.debits}`, debit(basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret))),
        },
        {
          what: "acme's link, acme's partner at globex",
          at: 'globex',
          status: [401],
          reply: await c.call(
            'POST',
            `${PARTNER_API_BASE}${partnerPaths.debits}`,
            debit(basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET)),
          ),
        },
        {
          what: "globex's partner at acme",
          at: 'acme',
          status: [401],
          reply: await c.call('POST', `${PARTNER_API_BASE}${partnerPaths.debits}`, {
            ...debit(basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret)),
            at: 'acme',
          }),
        },
      ];
    },
  },
  [`POST ${PARTNER_API_BASE}/punchouts/{jti}`]: {
    request: (c, as) =>
      c.call('POST', `${PARTNER_API_BASE}${partnerPaths.punchout(randomUUID())}`, {
        at: as.at,
        headers: {
          authorization:
            as.at === 'acme'
              ? basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET)
              : basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret),
        },
        body: {},
      }),
    attacks: async (c) => {
      // An acme punch-out link (its token's jti), redeemed through globex.
      const link = (await c.call('GET', v1(apiPaths.catalogUrl('merchandise')), { at: 'acme', session: c.acmeSession })).json<{
        catalogUrl: string;
      }>().catalogUrl;
      const token = new URL(link).searchParams.get('token') ?? '';
      const { jti } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti: string };
      const url = `${PARTNER_API_BASE}${partnerPaths.punchout(jti)}`;
      const as = (partner: string, at: Client) => ({ at, headers: { authorization: partner }, body: {} });
      return [
        {
          what: "acme's link, globex's partner",
          at: 'globex',
          status: [404],
          reply: await c.call('POST', url, as(basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret), 'globex')),
        },
        {
          what: "acme's link, acme's partner at globex",
          at: 'globex',
          status: [401],
          reply: await c.call('POST', url, as(basic(DEMO_CATALOG_PARTNER_ID, DEMO_CATALOG_PARTNER_SECRET), 'globex')),
        },
        {
          what: "acme's link, globex's partner at acme",
          at: 'acme',
          status: [401],
          reply: await c.call('POST', url, as(basic(GLOBEX_PARTNER.id, GLOBEX_PARTNER.secret), 'acme')),
        },
      ];
    },
  },
};

interface DocumentOperation {
  security?: Array<Record<string, string[]>>;
}

describe.each(dialects)('two clients share nothing, on %s', (dialect) => {
  let t: TestApp;
  let ctx: Context;
  let operations: Map<string, DocumentOperation>;
  /** What only one client's replies may show: names, addresses, account numbers, history, programs. */
  const markers: Record<Client, string[]> = { acme: [], globex: [] };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const db = t.database.db;
    const now = new Date().toISOString();
    await insertOtsCodes(db, newOtsCodeRows('acme', [ACME_CODE], new Date()));
    await db
      .insertInto('catalog_partners')
      .values({
        id: GLOBEX_PARTNER.id,
        client_id: OTHER_CLIENT_ID,
        name: 'Globex shop',
        secret_hash: partnerSecretHash(GLOBEX_PARTNER.secret),
        created_at: now,
      })
      .execute();
    // Gina may redeem codes: a refusal then comes from the code's client, not from her settings.
    await db.updateTable('participants').set({ ots_enabled: 1 }).where('client_id', '=', OTHER_CLIENT_ID).execute();
    const [onlyId, pendingId] = [randomUUID(), randomUUID()];
    const globexPerson = (id: string, p: { username: string; accountNumber: string; lastName: string }, status: 'active' | 'pending') =>
      withSearchKeys({
        id,
        client_id: OTHER_CLIENT_ID,
        username: p.username,
        username_key: p.username,
        email: `${p.username}@globex.example`,
        first_name: 'Gaston',
        last_name: p.lastName,
        password_hash: '',
        status,
        locale: 'fr-FR',
        account_number: p.accountNumber,
        offers_merchandise: 0,
        offers_experiences: 0,
        ots_enabled: 1,
        privacy_ack_version: 0,
        balance: null,
        created_at: now,
      });
    await db
      .insertInto('participants')
      .values([globexPerson(onlyId, GLOBEX_ONLY, 'active'), globexPerson(pendingId, GLOBEX_PENDING, 'pending')])
      .execute();
    await db
      .insertInto('participant_programs')
      .values({ client_id: OTHER_CLIENT_ID, participant_id: onlyId, program_name: 'Globex Club Privé', position: 1 })
      .execute();
    await db.transaction().execute((trx) =>
      appendLedgerEntry(trx, {
        clientId: OTHER_CLIENT_ID,
        participantId: onlyId,
        occurredAt: now,
        description: GLOBEX_ONLY.entry,
        amount: 55,
        kind: 'award',
      }),
    );
    const gina = await db
      .selectFrom('participants')
      .select('id')
      .where('client_id', '=', OTHER_CLIENT_ID)
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const globexResetToken = newResetToken();
    await db
      .insertInto('password_resets')
      .values({
        token_hash: hashResetToken(globexResetToken),
        client_id: OTHER_CLIENT_ID,
        participant_id: gina.id,
        created_at: now,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        used_at: null,
        voided_at: null,
      })
      .execute();

    const [dana, ginaUser] = await Promise.all([t.login('demo'), t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN)]);
    ctx = {
      t,
      acmeSession: dana.sessionId,
      globexSession: ginaUser.sessionId,
      globexResetToken,
      acmeDemoId: dana.userId,
      call: (method, url, { at, session, body, headers }) =>
        t.app.inject({
          method,
          url,
          headers: {
            'content-type': 'application/json',
            [CLIENT_HEADER]: at === 'acme' ? DEMO_ORIGIN : OTHER_ORIGIN,
            ...(session ? { [SESSION_HEADER]: session } : {}),
            ...headers,
          },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        }),
    };

    // Each client's own words, from the database: what the other client's replies must never show.
    for (const client of ['acme', OTHER_CLIENT_ID] as const) {
      const key: Client = client === 'acme' ? 'acme' : 'globex';
      const people = await db
        .selectFrom('participants')
        .select(['first_name', 'last_name', 'email', 'account_number'])
        .where('client_id', '=', client)
        .execute();
      const programs = await db.selectFrom('participant_programs').select('program_name').where('client_id', '=', client).execute();
      const entries = await db.selectFrom('ledger_entries').select('description').where('client_id', '=', client).limit(50).execute();
      const name = await db.selectFrom('clients').select('name').where('id', '=', client).executeTakeFirstOrThrow();
      markers[key] = [
        ...new Set([
          name.name,
          ...people.flatMap((p) => [`${p.first_name} ${p.last_name}`, p.email, p.account_number]),
          ...programs.map((p) => p.program_name),
          ...entries.map((e) => e.description),
        ]),
      ].filter((text): text is string => typeof text === 'string' && text.length >= 5);
    }
    markers.globex.push('Bienvenue chez Globex', 'étoile');

    const document = (await t.app.inject({ method: 'GET', url: API_DOCUMENT_PATH })).json<{
      paths: Record<string, Record<string, DocumentOperation>>;
    }>();
    operations = new Map(
      Object.entries(document.paths).flatMap(([path, byMethod]) =>
        Object.entries(byMethod).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const),
      ),
    );
  });
  afterAll(() => t.close());

  it('has a sample request for every endpoint of the API document', () => {
    const documented = [...operations.keys()]
      .filter((op) => !CLIENT_INDEPENDENT.includes(op) && !isConsole(op) && !isProgramApi(op))
      .sort();
    expect(documented, 'add a row to SAMPLES in isolation.test.ts for each new endpoint').toEqual(Object.keys(SAMPLES).sort());
  });

  it("refuses the other client's sessions, usernames, codes and links, and no reply shows the other client's data", async () => {
    const other: Record<Client, Client> = { acme: 'globex', globex: 'acme' };
    const problems: string[] = [];
    const leaks = (reply: LightMyRequestResponse, at: Client) => markers[other[at]].filter((marker) => reply.body.includes(marker));
    const balancesBefore = await t.database.db
      .selectFrom('participants')
      .select(['client_id', 'username', 'balance'])
      .orderBy('client_id')
      .orderBy('username')
      .execute();

    for (const [name, sample] of Object.entries(SAMPLES)) {
      const security = operations.get(name)?.security ?? [];
      const usesSession = security.some((requirement) => 'session' in requirement);
      const sessionMandatory = usesSession && security.every((requirement) => 'session' in requirement);

      // The document's security holds: a mandatory session is asked for.
      const anonymous = await sample.request(ctx, { at: 'acme' });
      if (sessionMandatory !== (anonymous.statusCode === 401))
        problems.push(
          `${name} without a session: ${anonymous.statusCode}, the document says the session is ${sessionMandatory ? '' : 'not '}required`,
        );

      // The other client's session on this client's origin is no session here, both ways.
      if (usesSession) {
        for (const [at, session] of [
          ['acme', ctx.globexSession],
          ['globex', ctx.acmeSession],
        ] as const) {
          const crossed = await sample.request(ctx, { at, session });
          if (crossed.statusCode !== 401)
            problems.push(`${name} with ${other[at]}'s session at ${at}: ${crossed.statusCode}, expected 401`);
          const leaked = leaks(crossed, at);
          if (leaked.length > 0) problems.push(`${name} with ${other[at]}'s session at ${at} shows ${leaked.join(', ')}`);
        }
      } else if (!sample.attacks)
        problems.push(`${name} takes no session: its row needs attacks with the other client's username, code or link`);

      for (const attack of (await sample.attacks?.(ctx)) ?? []) {
        if (!attack.status.includes(attack.reply.statusCode))
          problems.push(
            `${name}, ${attack.what}: ${attack.reply.statusCode} (${attack.reply.body.slice(0, 120)}), expected ${attack.status.join(' or ')}`,
          );
        const leaked = leaks(attack.reply, attack.at);
        if (leaked.length > 0) problems.push(`${name}, ${attack.what}: the reply shows ${leaked.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);

    // Nothing moved: no points (refused debits and codes), no mail to the other client's people, no reset used.
    const db = t.database.db;
    expect(
      await db.selectFrom('participants').select(['client_id', 'username', 'balance']).orderBy('client_id').orderBy('username').execute(),
    ).toEqual(balancesBefore);
    expect(await db.selectFrom('mail_outbox').select('to_address').where('to_address', 'like', '%globex.example').execute()).toEqual([]);
    expect(await db.selectFrom('password_resets').select(['used_at']).where('client_id', '=', OTHER_CLIENT_ID).execute()).toEqual([
      { used_at: null },
    ]);
    expect(
      await db.selectFrom('participants').select('status').where('username', '=', GLOBEX_PENDING.username).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'pending' });
    expect(
      await db.selectFrom('ots_codes').select(['status', 'redeemed_by']).where('code_hint', '=', ACME_CODE.code.slice(-4)).execute(),
    ).toEqual([{ status: 'unused', redeemed_by: null }]);
    expect(await db.selectFrom('catalog_punchouts').select('jti').where('redeemed_at', 'is not', null).execute()).toEqual([]);
    await expectLedgerMatchesBalances(db);
  });
});
