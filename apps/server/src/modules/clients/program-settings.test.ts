import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientData } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import { consoleClientPaths as paths, type ProgramSettings, type ProgramSettingsReply } from '@rewards/contract/console-clients';
import { dialects } from '../../../test/databases.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

const ACME = 'acme';
const REASON = 'Program board, minute 21';

/** The console's program rules (issue 20 §3, decision 065) through the API, on both engines. */
describe.each(dialects)("the console's program settings on %s", (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let agent: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
  }, 60_000);
  afterAll(() => t.close());

  const get = (who: EnrolledStaff) => t.console('GET', paths.programSettings(ACME), { cookie: who.cookie });
  const put = (who: EnrolledStaff, body: unknown) => t.console('PUT', paths.programSettings(ACME), { cookie: who.cookie, body });

  it('sets every rule with a reason, audited from and to; the portal shows them', async () => {
    const before = (await get(agent)).json<ProgramSettings>();
    const wanted: ProgramSettings = {
      passwordRules: { ...before.passwordRules, minLength: 12, requireSymbol: true },
      activationFields: ['userName', 'emailAddress'],
      travelUrl: 'https://travel.example/acme',
      supportEmail: 'help@acme.example',
      privacyNoticeVersion: before.privacyNoticeVersion + 1,
    };
    expect((await put(agent, { ...wanted, reason: REASON })).statusCode).toBe(403);
    const reply = await put(manager, { ...wanted, supportEmail: ' help@acme.example ', reason: REASON });
    expect(reply.statusCode, reply.body).toBe(200);
    const set = reply.json<ProgramSettingsReply>();
    expect(set).toMatchObject(wanted);
    const audit = await t.database.db.selectFrom('audit_log').select('details').where('id', '=', set.auditId).executeTakeFirstOrThrow();
    const details = JSON.parse(audit.details) as Record<string, { from: unknown; to: unknown }>;
    expect(details.travelUrl).toEqual({ from: before.travelUrl, to: 'https://travel.example/acme' });
    expect(details.privacyNoticeVersion).toEqual({ from: before.privacyNoticeVersion, to: wanted.privacyNoticeVersion });
    expect(details.passwordRules?.to).toEqual(wanted.passwordRules);

    const data = (await t.api('GET', apiPaths.clientData)).json<ClientData>();
    expect(data.passwordRules).toEqual(wanted.passwordRules);
    expect(data.clientBranding.activationFields).toEqual(['userName', 'emailAddress']);
    expect(data.catalogs?.travelUrl).toBe('https://travel.example/acme');
    expect(data.privacyNoticeVersion).toBe(wanted.privacyNoticeVersion);

    expect((await put(manager, { ...wanted, reason: REASON })).json<ProgramSettingsReply>().auditId).toBeNull();
    const none = await put(manager, { ...wanted, travelUrl: null, activationFields: [], supportEmail: '', reason: REASON });
    expect(none.json<ProgramSettingsReply>()).toMatchObject({ travelUrl: null, activationFields: [], supportEmail: '' });
  });

  it('refuses what the command refuses with a 400 naming it, and changes nothing', async () => {
    const before = (await get(manager)).json<ProgramSettings>();
    const ok = { ...before, reason: REASON };
    const bad: Array<[unknown, RegExp | undefined]> = [
      [{ ...ok, passwordRules: { ...before.passwordRules, minLength: 3 } }, /min must be at least 4/],
      [{ ...ok, passwordRules: { ...before.passwordRules, maxLength: 201 } }, /max must be at most 200/],
      [{ ...ok, passwordRules: { ...before.passwordRules, minLength: 20, maxLength: 10 } }, /max must not be below min/],
      [{ ...ok, activationFields: ['lastName'] }, /must include accountNumber or userName/],
      [{ ...ok, activationFields: ['shoeSize', 'userName'] }, /unknown field "shoeSize"/],
      [{ ...ok, activationFields: ['userName', 'userName'] }, /a field is named twice/],
      [{ ...ok, travelUrl: 'javascript:alert(1)' }, /the travel link: must be an http\(s\) URL or a path/],
      [{ ...ok, travelUrl: '//evil.example' }, /the travel link/],
      [{ ...ok, supportEmail: 'not an address' }, /the support e-mail/],
      [{ ...ok, privacyNoticeVersion: -1 }, /privacy notice version/],
      [{ ...ok, privacyNoticeVersion: 1.5 }, undefined],
      [{ ...ok, reason: undefined }, undefined],
    ];
    for (const [body, message] of bad) {
      const reply = await put(manager, body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 160)).toBe(400);
      if (message) expect(reply.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get(manager)).json()).toEqual(before);
  });
});
