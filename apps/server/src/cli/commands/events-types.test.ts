import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventTypeView } from '@rewards/contract/console-event-types';
import { runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { listAudit } from '../../modules/audit/service.ts';

/** `rewards events types` (issue 32 §1, docs/decisions/100): list, declare, retire; the command parses, the service decides. */
describe.each(dialects)('rewards events types on %s', (dialect) => {
  let database: TestDatabase;
  const clientId = `evtypes-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await insertTestClient(database.db, clientId);
  });
  afterAll(() => database.drop());

  const run = (args: string[], json = false) =>
    runRewards(database, ['--operator', 'ops-tess', ...(json ? ['--json'] : []), 'events', 'types', ...args]);

  it('declares with a description, lists, retires with a reason (audited), and refuses what the service refuses, exit 2', async () => {
    const declared = await run(['declare', '--client', clientId, '--name', 'course.completed', '--description', 'From the LMS']);
    expect(declared.code, declared.stderr).toBe(0);
    expect(declared.stdout.trim()).toBe(`Declared event type course.completed of ${clientId}.`);

    const listed = await run(['list', '--client', clientId]);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^purchase\s+in use\s+built in$/);
    expect(lines[2]).toMatch(/^course\.completed\s+in use\s+declared \d{4}-\d{2}-\d{2} by ops-tess {2}— From the LMS$/);

    const noReason = await run(['retire', '--client', clientId, '--name', 'course.completed']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason <text> is required');
    const retired = await run(['retire', '--client', clientId, '--name', 'course.completed', '--reason', 'LMS replaced']);
    expect(retired.code, retired.stderr).toBe(0);
    expect(retired.stdout).toContain('Retired event type course.completed');
    const types = JSON.parse((await run(['list', '--client', clientId], true)).stdout) as EventTypeView[];
    expect(types.find((t) => t.name === 'course.completed')?.retired).toMatchObject({ by: 'ops-tess', reason: 'LMS replaced' });
    const actions = (await listAudit(database.db, { clientId, action: 'event-types.', limit: 5 })).map((e) => [e.action, e.actor]);
    expect(actions).toEqual([
      ['event-types.retire', 'ops-tess'],
      ['event-types.declare', 'ops-tess'],
    ]);

    const bad = await run(['declare', '--client', clientId, '--name', 'Course..Done']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('name: the name is lower-case dotted words');
    const builtIn = await run(['retire', '--client', clientId, '--name', 'purchase', '--reason', 'no more']);
    expect(builtIn.code).toBe(2);
    expect(builtIn.stderr).toContain('purchase is built in');
    const noClient = await run(['list', '--client', 'no-such-client']);
    expect(noClient.code).toBe(2);
  });
});
