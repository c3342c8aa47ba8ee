import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EarningRuleView, SimulationResult } from '@rewards/contract/earning-rules';
import { runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { listAudit } from '../../modules/audit/service.ts';

/** `rewards rules` (issue 32 §2, docs/decisions/095): rules from files, listed, simulated; the command parses, the service decides. */
describe.each(dialects)('rewards rules on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const clientId = `rules-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await insertTestClient(database.db, clientId, { time_zone: 'Europe/Paris' });
    await addGeneratedParticipants(database.db, clientId, 1);
    dir = mkdtempSync(join(tmpdir(), 'rules-cli-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const run = (args: string[]) => runRewards(database, ['--operator', 'ops-rita', 'rules', ...args]);
  const json = async <T>(args: string[]): Promise<T> => {
    const result = await runRewards(database, ['--operator', 'ops-rita', '--json', 'rules', ...args]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  const rule = {
    name: 'Store purchases',
    event: 'purchase',
    conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }, { amount: { atLeast: '10.00' } }],
    earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
    caps: { participant: { points: 500, per: 'month' }, budget: { points: 1000000 } },
    pendingDays: 14,
    validFrom: '2026-01-01',
    validUntil: null,
    priority: 10,
    stacking: 'add',
    text: { 'en-US': '2 points per euro in store', 'fr-FR': '2 points par euro en magasin' },
  };

  it('creates from a file, lists, simulates rule by rule, updates, disables and enables, each audited with its reason', async () => {
    const created = await run(['create', '--client', clientId, '--file', file('rule.json', rule), '--reason', 'launch']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Created rule store-purchases of rules-\w+: version 1, earning from /);

    const listed = await run(['list', '--client', clientId]);
    expect(listed.stdout).toContain('store-purchases');
    expect(listed.stdout).toContain('2 per 1.00 (down)');
    expect(listed.stdout).toContain('budget 1000000 of 1000000 left');
    const [view] = await json<EarningRuleView[]>(['list', '--client', clientId]);
    expect(view).toMatchObject({ id: 'store-purchases', version: 1, enabled: true, rule: { name: 'Store purchases', pendingDays: 14 } });

    const event = file('event.json', {
      type: 'purchase',
      username: generatedUsername(0),
      // No occurredAt: now, so each simulation sees the version just written.
      amount: '120.50',
      attributes: { category: 'shoes' },
    });
    const simulated = await run(['simulate', '--client', clientId, '--file', event]);
    expect(simulated.code, simulated.stderr).toBe(0);
    expect(simulated.stdout).toContain('241  store-purchases v1  Store purchases');
    expect(simulated.stdout).toContain('met     category in shoes, bags (category is shoes)');
    expect(simulated.stdout).toContain('2 points per 1.00 of 120.50 = 241, rounded down');
    expect(simulated.stdout).toContain('241  in all, 241 of them pending (nothing was written)');
    expect((await json<SimulationResult>(['simulate', '--client', clientId, '--file', event])).total).toBe(241);

    const updated = await run([
      'update',
      '--client',
      clientId,
      '--file',
      file('rule-v2.json', { id: 'store-purchases', ...rule, earn: { pointsPer: 3, per: '1.00', rounding: 'down' } }),
      '--reason',
      'three points',
    ]);
    expect(updated.stdout).toMatch(/^Updated rule store-purchases of rules-\w+: version 2/);
    expect((await json<SimulationResult>(['simulate', '--client', clientId, '--file', event])).total).toBe(361);

    expect((await run(['disable', '--client', clientId, '--rule', 'store-purchases', '--reason', 'paused'])).stdout).toContain(
      'version 3, disabled',
    );
    expect((await json<SimulationResult>(['simulate', '--client', clientId, '--file', event])).total).toBe(0);
    expect((await run(['disable', '--client', clientId, '--rule', 'store-purchases', '--reason', 'paused'])).stdout).toContain(
      'nothing written',
    );
    expect((await run(['enable', '--client', clientId, '--file', join(dir, 'rule-v2.json'), '--reason', 'back'])).stdout).toContain(
      'version 4, earning',
    );

    const shown = await run(['show', '--client', clientId, '--rule', 'store-purchases']);
    expect(
      shown.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/from \S+/, 'from …')),
    ).toEqual([
      'store-purchases (Store purchases):',
      'v1    from …  on   by ops-rita  "launch"',
      'v2    from …  on   by ops-rita  "three points"  changed earn',
      'v3    from …  OFF  by ops-rita  "paused"',
      'v4    from …  on   by ops-rita  "back"',
    ]);

    const trail = await listAudit(database.db, { clientId, action: 'earning-rules', limit: 10 });
    expect(trail.map((e) => [e.action, e.actor, JSON.parse(e.details).reason])).toEqual([
      ['earning-rules.enable', 'ops-rita', 'back'],
      ['earning-rules.disable', 'ops-rita', 'paused'],
      ['earning-rules.update', 'ops-rita', 'three points'],
      ['earning-rules.create', 'ops-rita', 'launch'],
    ]);
  });

  it('refuses in one line with exit code 2 and writes nothing: a bad rule, bad JSON, no reason, an unknown client', async () => {
    const trailBefore = (await listAudit(database.db, { clientId, action: 'earning-rules', limit: 50 })).length;
    const bad = await run([
      'create',
      '--client',
      clientId,
      '--file',
      file('bad.json', { ...rule, earn: { pointsPer: 2, per: '1,00' } }),
      '--reason',
      'try',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'rewards: The rule is not valid: earn.per: an amount is a decimal string such as "10.00" (digits, at most 6 decimals, no sign, no exponent)',
    );
    const notJson = await run(['create', '--client', clientId, '--file', file('broken.json', '{"name": '), '--reason', 'try']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('broken.json is not JSON');
    const noReason = await run(['create', '--client', clientId, '--file', join(dir, 'rule.json')]);
    expect(noReason.stderr.trim()).toBe('rewards: --reason <text> is required (3 to 500 characters), for the audit log');
    expect((await run(['create', '--client', 'nope', '--file', join(dir, 'rule.json'), '--reason', 'try'])).code).toBe(2);
    expect((await run(['update', '--client', clientId, '--file', file('no-id.json', rule), '--reason', 'try'])).stderr).toContain(
      '--rule <id> is required',
    );
    expect((await run(['simulate', '--client', clientId, '--file', join(dir, 'missing.json')])).stderr.trim()).toBe(
      `rewards: Cannot read ${join(dir, 'missing.json')}`,
    );
    expect((await listAudit(database.db, { clientId, action: 'earning-rules', limit: 50 })).length).toBe(trailBefore);
  });
});
