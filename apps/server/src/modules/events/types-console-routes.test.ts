import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleEventTypesPaths as paths,
  type ConsoleEventTypeList,
  type ConsoleEventTypeReply,
} from '@rewards/contract/console-event-types';
import { dialects } from '../../../test/databases.ts';
import { listAudit } from '../audit/service.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp } from '../staff/test-support.ts';

/** Programs → Earning rules → Event types (decision 100): the console's routes over the types' service. The role table is staff/authorization.test.ts. */
describe.each(dialects)('the console event-types API on %s', (dialect) => {
  let t: ConsoleTestApp;
  let pm: string;
  let agent: string;
  const name = `console.types.t${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    pm = (await enrolStaff(t, 'types-pm@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] })).cookie;
    agent = (await enrolStaff(t, 'types-agent@acme.test', { roles: [{ clientId: 'acme', role: 'support_agent' }] })).cookie;
  });
  afterAll(() => t.close());

  it('declares a type with what it means, lists it for every role, retires it with a reason; each change audited under the staff member', async () => {
    const declared = await t.console('POST', paths.types('acme'), { cookie: pm, body: { name, description: 'From the LMS' } });
    expect(declared.statusCode, declared.body).toBe(201);
    expect(declared.json<ConsoleEventTypeReply>().type).toMatchObject({
      name,
      origin: 'declared',
      description: 'From the LMS',
      declaredBy: 'types-pm@acme.test',
      retired: null,
    });

    const list = (await t.console('GET', paths.types('acme'), { cookie: agent })).json<ConsoleEventTypeList>();
    expect(list.types.slice(0, 2).map((type) => type.name)).toEqual(['purchase', 'return']);
    expect(list.types.find((type) => type.name === name)).toMatchObject({ origin: 'declared' });

    const retired = await t.console('POST', paths.retire('acme', name), { cookie: pm, body: { reason: 'LMS replaced' } });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json<ConsoleEventTypeReply>().type.retired).toMatchObject({ by: 'types-pm@acme.test', reason: 'LMS replaced' });
    const audits = (await listAudit(t.database.db, { clientId: 'acme', action: 'event-types.', limit: 20 })).filter(
      (e) => e.subject === name,
    );
    expect(audits.map((e) => [e.action, e.actor])).toEqual([
      ['event-types.retire', 'types-pm@acme.test'],
      ['event-types.declare', 'types-pm@acme.test'],
    ]);
  });

  it('answers a bad name, a built-in type, a missing reason and an unknown type with a clear 4xx, changing nothing', async () => {
    const before = (await t.console('GET', paths.types('acme'), { cookie: pm })).json<ConsoleEventTypeList>();
    const bad = await t.console('POST', paths.types('acme'), { cookie: pm, body: { name: 'Course Completed', description: '' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('name: the name is lower-case dotted words');
    const builtIn = await t.console('POST', paths.types('acme'), { cookie: pm, body: { name: 'purchase', description: '' } });
    expect(builtIn.statusCode).toBe(400);
    expect(builtIn.json<{ message: string }>().message).toContain('purchase is built in');
    const noReason = await t.console('POST', paths.retire('acme', 'purchase'), { cookie: pm, body: {} });
    expect(noReason.statusCode).toBe(400);
    const unknown = await t.console('POST', paths.retire('acme', 'never.declared'), { cookie: pm, body: { reason: 'why not' } });
    expect(unknown.statusCode).toBe(404);
    const huge = await t.console('POST', paths.types('acme'), { cookie: pm, body: { name: 'a.b', description: 'x'.repeat(501) } });
    expect(huge.statusCode).toBe(400);
    expect((await t.console('GET', paths.types('acme'), { cookie: pm })).json<ConsoleEventTypeList>()).toEqual(before);
  });
});
