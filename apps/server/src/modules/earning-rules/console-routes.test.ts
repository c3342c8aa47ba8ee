import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleEarningRulesPaths as paths,
  type ConsoleEarningRuleChangeReply,
  type ConsoleEarningRuleDetail,
  type ConsoleEarningRuleList,
} from '@rewards/contract/console-earning-rules';
import type { SimulationResult } from '@rewards/contract/earning-rules';
import { dialects } from '../../../test/databases.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp } from '../staff/test-support.ts';

/** Programs → Earning rules (decision 096): the console's routes over the rules service. The role table is staff/authorization.test.ts. */
describe.each(dialects)('the console earning-rules API on %s', (dialect) => {
  let t: ConsoleTestApp;
  let pm: string;
  let agent: string;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    pm = (await enrolStaff(t, 'rules-pm@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] })).cookie;
    agent = (await enrolStaff(t, 'rules-agent@acme.test', { roles: [{ clientId: 'acme', role: 'support_agent' }] })).cookie;
  });
  afterAll(() => t.close());

  const rule = (name: string) => ({
    name,
    event: 'purchase',
    conditions: [{ attribute: 'category', in: ['shoes'] }],
    earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
    caps: { budget: { points: 1000 } },
  });

  it('creates a rule, lists it with its budget, shows its versions, and a new version and a disable each add one with the reason', async () => {
    const created = await t.console('POST', paths.rules('acme'), {
      cookie: pm,
      body: { rule: rule('Console shoes'), reason: 'Shoe week' },
    });
    expect(created.statusCode).toBe(201);
    const { rule: view } = created.json<ConsoleEarningRuleChangeReply>();
    expect(view).toMatchObject({ id: 'console-shoes', version: 1, enabled: true, budget: { points: 1000, used: 0, left: 1000 } });

    const list = (await t.console('GET', paths.rules('acme'), { cookie: agent })).json<ConsoleEarningRuleList>();
    expect(list.rules.find((r) => r.id === 'console-shoes')).toMatchObject({
      event: 'purchase',
      rule: { stacking: 'add', pendingDays: 0 },
    });

    const updated = await t.console('PUT', paths.rule('acme', 'console-shoes'), {
      cookie: pm,
      body: { rule: { ...rule('Console shoes'), earn: { pointsPer: 3, per: '1.00' } }, reason: 'Three per euro' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<ConsoleEarningRuleChangeReply>()).toMatchObject({ unchanged: false, rule: { version: 2 } });
    const disabled = await t.console('POST', paths.state('acme', 'console-shoes'), {
      cookie: pm,
      body: { enabled: false, reason: 'Week over' },
    });
    expect(disabled.json<ConsoleEarningRuleChangeReply>()).toMatchObject({ rule: { version: 3, enabled: false } });
    // Disabling a disabled rule changes nothing and writes nothing.
    const again = await t.console('POST', paths.state('acme', 'console-shoes'), {
      cookie: pm,
      body: { enabled: false, reason: 'Week over' },
    });
    expect(again.json<ConsoleEarningRuleChangeReply>()).toMatchObject({ unchanged: true, rule: { version: 3 } });

    const detail = (await t.console('GET', paths.rule('acme', 'console-shoes'), { cookie: agent })).json<ConsoleEarningRuleDetail>();
    expect(detail.versions.map((v) => [v.version, v.enabled, v.reason, v.changedBy])).toEqual([
      [1, true, 'Shoe week', 'rules-pm@acme.test'],
      [2, true, 'Three per euro', 'rules-pm@acme.test'],
      [3, false, 'Week over', 'rules-pm@acme.test'],
    ]);
    expect(detail.versions[1]!.changed).toEqual(['earn']);
  });

  it('tries an event for any role: rule by rule, writing nothing', async () => {
    await t.console('POST', paths.rules('acme'), {
      cookie: pm,
      body: { rule: { ...rule('Console bags'), conditions: [] }, reason: 'Bags' },
    });
    const tried = await t.console('POST', paths.simulate('acme'), {
      cookie: agent,
      body: { type: 'purchase', amount: '120.50', attributes: { category: 'bags' } },
    });
    expect(tried.statusCode).toBe(200);
    const result = tried.json<SimulationResult>();
    expect(result.lines.find((l) => l.ruleId === 'console-bags')).toMatchObject({ matched: true, points: 241 });
    const list = (await t.console('GET', paths.rules('acme'), { cookie: agent })).json<ConsoleEarningRuleList>();
    expect(list.rules.find((r) => r.id === 'console-bags')!.budget).toEqual({ points: 1000, used: 0, left: 1000 });
  });

  it('schedules a version for later: the list shows it as the latest while the one before stays in force; never in the past', async () => {
    await t.console('POST', paths.rules('acme'), { cookie: pm, body: { rule: rule('Console later'), reason: 'Later' } });
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await t.console('PUT', paths.rule('acme', 'console-later'), {
      cookie: pm,
      body: { rule: { ...rule('Console later'), earn: { points: 50 } }, reason: 'Tomorrow', effectiveFrom: later },
    });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json<ConsoleEarningRuleChangeReply>().rule).toMatchObject({
      version: 2,
      effectiveFrom: later,
      inForce: { version: 1 },
    });
    const past = await t.console('PUT', paths.rule('acme', 'console-later'), {
      cookie: pm,
      body: { rule: rule('Console later'), reason: 'Yesterday', effectiveFrom: '2020-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
  });

  it("refuses a support agent's change (403), a rule that does not parse with where (400), an unknown rule (404), a missing reason (400), and writes nothing", async () => {
    const refused = await t.console('POST', paths.rules('acme'), { cookie: agent, body: { rule: rule('Agent rule'), reason: 'Not mine' } });
    expect(refused.statusCode).toBe(403);
    const bad = await t.console('POST', paths.rules('acme'), {
      cookie: pm,
      body: { rule: { ...rule('Bad rule'), earn: { pointsPer: 2, per: '1,00' } }, reason: 'Typo' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ params: { problems: string } }>().params.problems).toContain('earn.per:');
    const noReason = await t.console('POST', paths.rules('acme'), { cookie: pm, body: { rule: rule('No reason'), reason: '' } });
    expect(noReason.statusCode).toBe(400);
    const unknown = await t.console('GET', paths.rule('acme', 'no-such-rule'), { cookie: agent });
    expect(unknown.statusCode).toBe(404);
    const badEvent = await t.console('POST', paths.simulate('acme'), { cookie: agent, body: { type: 'purchase', amount: '-1' } });
    expect(badEvent.statusCode).toBe(400);
    const ids = (await t.console('GET', paths.rules('acme'), { cookie: pm })).json<ConsoleEarningRuleList>().rules.map((r) => r.id);
    expect(ids).not.toContain('agent-rule');
    expect(ids).not.toContain('bad-rule');
    expect(ids).not.toContain('no-reason');
  });
});
