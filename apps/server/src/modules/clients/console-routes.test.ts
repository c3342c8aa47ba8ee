import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClientPaths as paths, type ExpirySettingsReply } from '@rewards/contract/console-clients';
import { dialects } from '../../../test/databases.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

const ACME = 'acme';
const REASON = 'Program board, minute 19';
const DEFAULTS = { policy: { type: 'none' }, timeZone: 'UTC', reminderDays: 30, lastChanceDays: 7 };
const ROLLING = { policy: { type: 'rolling', months: 12 }, timeZone: 'Europe/Paris', reminderDays: 30, lastChanceDays: 7 };

/** The console's expiry settings (issue 19, docs/decisions/062) through the API, on both engines. */
describe.each(dialects)("the console's expiry settings on %s", (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;
  let manager: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());

  const get = (who: EnrolledStaff, clientId = ACME) => t.console('GET', paths.expirySettings(clientId), { cookie: who.cookie });
  const put = (who: EnrolledStaff, body: unknown, clientId = ACME) =>
    t.console('PUT', paths.expirySettings(clientId), { cookie: who.cookie, body });
  const settingsAudits = () =>
    t.database.db
      .selectFrom('audit_log')
      .select(['id', 'actor', 'actor_kind', 'details'])
      .where('action', '=', 'clients.settings')
      .where('client_id', '=', ACME)
      .execute();

  it('shows every role the settings; a program manager sets a rolling policy with a reason, audited once', async () => {
    for (const who of [owner, manager, agent, auditor]) {
      const reply = await get(who);
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toEqual(DEFAULTS);
    }
    for (const who of [agent, auditor]) expect((await put(who, { ...ROLLING, reason: REASON })).statusCode).toBe(403);
    expect(await settingsAudits()).toEqual([]);

    const set = await put(manager, { ...ROLLING, timeZone: 'europe/paris', reason: REASON });
    expect(set.statusCode).toBe(200);
    const reply = set.json<ExpirySettingsReply>();
    expect(reply).toMatchObject(ROLLING);
    const [audit, ...more] = await settingsAudits();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ id: reply.auditId, actor: manager.email, actor_kind: 'staff' });
    expect(JSON.parse(audit!.details)).toEqual({
      expiryPolicy: { from: { type: 'none' }, to: { type: 'rolling', months: 12 } },
      timeZone: { from: 'UTC', to: 'Europe/Paris' },
      reason: REASON,
    });
    expect((await get(auditor)).json()).toEqual(ROLLING);

    // The same set again: nothing written.
    const again = await put(manager, { ...ROLLING, reason: REASON });
    expect(again.json()).toEqual({ ...ROLLING, auditId: null });
    expect(await settingsAudits()).toHaveLength(1);
  });

  it('refuses what is not a setting with a 400 naming it, and changes nothing', async () => {
    const before = (await get(manager)).json();
    const bad: Array<[unknown, RegExp | undefined]> = [
      [{ ...ROLLING, timeZone: 'Mars/Base', reason: REASON }, /"Mars\/Base" is not a time zone/],
      [{ ...ROLLING, timeZone: '+01:00', reason: REASON }, /is not a time zone/],
      [{ ...ROLLING, reminderDays: 7, lastChanceDays: 7, reason: REASON }, /more days before an expiry than the last chance/],
      [{ ...ROLLING, policy: { type: 'rolling', months: 0 }, reason: REASON }, undefined],
      [{ ...ROLLING, policy: { type: 'calendar', period: 'week', count: 1 }, reason: REASON }, undefined],
      [{ ...ROLLING, policy: { type: 'sometimes' }, reason: REASON }, undefined],
      [{ ...ROLLING, reminderDays: 400, reason: REASON }, undefined],
      [{ ...ROLLING, lastChanceDays: -1, reason: REASON }, undefined],
      [{ ...ROLLING, reason: 'no' }, undefined],
      [{ ...ROLLING }, undefined],
      [{ policy: { type: 'none' }, reason: REASON }, undefined],
    ];
    for (const [body, message] of bad) {
      const reply = await put(manager, body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      if (message) expect(reply.json<{ message: string }>().message).toMatch(message);
    }
    expect((await get(manager)).json()).toEqual(before);
  });

  it("answers 403 in another's client and 404 for a client that does not exist", async () => {
    expect((await get(manager, 'globex')).statusCode).toBe(403);
    expect((await put(manager, { ...ROLLING, reason: REASON }, 'globex')).statusCode).toBe(403);
    expect((await get(owner, 'nowhere')).statusCode).toBe(404);
    expect((await put(owner, { ...ROLLING, reason: REASON }, 'nowhere')).statusCode).toBe(404);
    // An owner changes any client's.
    const set = await put(owner, { ...ROLLING, policy: { type: 'calendar', period: 'year', count: 1 }, reason: REASON }, 'globex');
    expect(set.statusCode).toBe(200);
    expect((await get(owner, 'globex')).json()).toMatchObject({ policy: { type: 'calendar', period: 'year', count: 1 } });
  });
});
