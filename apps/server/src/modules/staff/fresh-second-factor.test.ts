import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { ErrorCode } from '@rewards/contract';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { dialects } from '../../../test/databases.ts';
import { registeredRoutes } from '../../http/api-document.ts';
import { FRESH_SECOND_FACTOR } from './routes.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from './test-support.ts';

/**
 * Decision 077: every console route that reveals a secret or widens what staff, a key or a partner
 * may do needs a second factor passed within the last five minutes. This table is where a reader
 * sees which and why; the routes declare it (`documented(…, { freshSecondFactor: true })`), the
 * first test holds the two together (a new route that declares it needs a row here, and a row
 * its declaration), the second calls each with a stale factor. Three routes ask for it only in
 * some cases; their handlers check it and their own tests show each case (console-actions.test.ts).
 */
const FRESH: Record<string, string> = {
  'PUT /clients/:clientId/settings': "the agents' daily limit: what an agent may post without anyone's step-up",
  'PUT /clients/:clientId/settings/catalogs': "a new partner's secret, and where participants' punch-out links go",
  'POST /clients/:clientId/settings/catalogs/partners/:partnerId/secret': "a partner's new secret",
  'POST /clients/:clientId/settings/catalogs/partners/:partnerId/revoke': "ends a partner's access: as deliberate as granting it",
  'PUT /clients/:clientId/settings/sso': "who may sign in to the client's portal",
  'POST /clients/:clientId/codes/batches': 'the codes themselves, each worth points',
  'POST /clients/:clientId/api-keys': "an API key, shown once: the client's data to whoever holds it",
  'POST /clients/:clientId/webhooks': "a webhook endpoint's signing secret, shown once: whoever holds it can forge the client's events",
  'POST /clients/:clientId/webhooks/:endpointId/rotate-secret':
    "a new signing secret, shown once: whoever holds it can forge the client's events",
  'POST /staff/invitations': 'a new staff member',
  'PUT /staff/:staffId/roles': "a staff member's roles",
  'POST /staff/:staffId/disable': 'staff access',
  'POST /staff/:staffId/enable': 'staff access',
  'POST /staff/:staffId/reset': "a staff member's way in",
  'POST /account/recovery-codes': 'new recovery codes, shown once',
  'POST /account/passkeys/options': 'a new second factor',
  'POST /account/passkeys': 'a new second factor',
  'DELETE /account/passkeys/:passkeyId': 'a second factor removed',
  'POST /account/totp/secret': "an authenticator app's secret",
  'POST /account/totp': 'a new second factor',
};
/** Asked for by the handler in some cases only (decision 077), each tested where the case is. */
const CONDITIONAL = {
  'POST /clients/:clientId/participants/:participantId/adjustments': "a program manager's or owner's adjustment above the agents' limit",
  'POST /clients/:clientId/participants/:participantId/details': 'a new e-mail address (decision 076)',
  'POST /clients/:clientId/participants/:participantId/mails/resend':
    "a program manager's or owner's link to an address staff changed within 24 hours (decision 076)",
};

const ACME = 'acme';

describe.each(dialects)('routes that need a fresh second factor on %s', (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'fresh-owner@rewards.test', { owner: true });
  });
  afterAll(() => t.close());

  /** Every session of the owner as if the second factor had been passed six minutes ago. */
  const ageSecondFactor = () =>
    t.database.db
      .updateTable('staff_sessions')
      .set({ second_factor_at: new Date(Date.now() - 6 * 60_000).toISOString() })
      .where('second_factor_at', 'is not', null)
      .execute();
  const auditCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is declared by exactly the routes of the table', () => {
    const named = (route: RouteOptions) =>
      (Array.isArray(route.method) ? route.method : [route.method]).map((m) => `${m} ${route.url.slice(CONSOLE_API_BASE.length)}`);
    const consoleRoutes = registeredRoutes(t.app).filter((route) => route.url.startsWith(`${CONSOLE_API_BASE}/`));
    const declared = consoleRoutes
      .filter((route) => (route.schema as Record<string, unknown> | undefined)?.[FRESH_SECOND_FACTOR] === true)
      .flatMap(named);
    expect(declared.sort()).toEqual(Object.keys(FRESH).sort());
    expect(consoleRoutes.flatMap(named)).toEqual(expect.arrayContaining(Object.keys(CONDITIONAL)));
  });

  it('answers 403 (92009) to an owner whose second factor is older than five minutes, before reading the body, changing nothing', async () => {
    await ageSecondFactor();
    const before = await auditCount();
    const observed: Record<string, string> = {};
    for (const route of Object.keys(FRESH)) {
      const [method, path] = route.split(' ') as [HTTPMethods, string];
      const url = path.replace(':clientId', ACME).replace(/:\w+/g, 'some-id');
      // An empty body: the check comes before validation, so it is the answer whatever the body.
      const reply = await t.console(method, url, { cookie: owner.cookie, ...(method === 'DELETE' ? {} : { body: {} }) });
      observed[route] = `${reply.statusCode} ${reply.json<{ errorCode?: number }>().errorCode}`;
    }
    expect(observed).toEqual(
      Object.fromEntries(Object.keys(FRESH).map((route) => [route, `403 ${ErrorCode.staffFreshSecondFactorRequired}`])),
    );
    expect(await auditCount()).toBe(before);
  });

  it("refuses the security test's two walk-arounds with a stale factor: raising the agents' limit, and a partner made through the catalogs", async () => {
    await ageSecondFactor();
    const limit = await t.console('PUT', `/clients/${ACME}/settings`, {
      cookie: owner.cookie,
      body: { agentDailyAdjustmentLimit: 100_000_000, reason: 'raise, then adjust' },
    });
    expect(limit.statusCode).toBe(403);
    const row = await t.database.db
      .selectFrom('clients')
      .select('agent_daily_adjustment_limit')
      .where('id', '=', ACME)
      .executeTakeFirstOrThrow();
    expect(row.agent_daily_adjustment_limit).not.toBe(100_000_000);
    const catalogs = await t.console('PUT', `/clients/${ACME}/settings/catalogs`, {
      cookie: owner.cookie,
      body: { merchandise: { url: 'https://shop.evil.example/', partnerId: 'evil-partner' }, reason: 'a partner of my own' },
    });
    expect(catalogs.statusCode).toBe(403);
    expect(catalogs.body).not.toMatch(/secret/i);
    expect(
      await t.database.db.selectFrom('catalog_partners').select('id').where('id', '=', 'evil-partner').executeTakeFirst(),
    ).toBeUndefined();
  });
});
