import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlOf } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { exited } from '../../../test/server-process.ts';
import { addClientWithPendingLines, balancesAndPending, RELEASE_AT } from './release-test-support.ts';

const CHILD = join(import.meta.dirname, '..', '..', '..', 'test', 'release-run-child.ts');
const PARTICIPANTS = 40;
const EVENTS = 3;

/** The release run in its own process; what it printed, once it has exited. */
async function runChild(database: TestDatabase, clock: string): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, [CHILD, databaseUrlOf(database), clock, '25'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => lines.push(text));
  const code = await exited(child);
  return { code, lines };
}

/**
 * Decision 098: two processes releasing pending points at once (the second one's clock past the
 * first one's lease, so both may work): each line is released once between them.
 */
describe.each(dialects)('the release run across processes on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await addClientWithPendingLines(database.db, 'twice', PARTICIPANTS, EVENTS);
  }, 120_000);
  afterAll(() => database.drop());

  it('two processes started together release each pending line once', async () => {
    expect(new Set((await balancesAndPending(database.db, 'twice')).map(String))).toEqual(new Set([String([0, 30])]));
    const later = new Date(Date.parse(RELEASE_AT) + 3 * 60_000).toISOString();
    const runs = await Promise.all([runChild(database, RELEASE_AT), runChild(database, later)]);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    const results = runs.map((r) => JSON.parse(r.lines.at(-1)!) as { status?: string; lost?: boolean; clients?: Array<{ lines: number }> });
    expect(results.some((r) => r.status === 'done')).toBe(true);
    expect(new Set((await balancesAndPending(database.db, 'twice')).map(String))).toEqual(new Set([String([30, 0])]));
    const released = await database.db
      .selectFrom('ledger_entries')
      .select(['reference'])
      .where('client_id', '=', 'twice')
      .where('reference', 'like', 'release:%')
      .execute();
    expect(released).toHaveLength(PARTICIPANTS * EVENTS);
    expect(new Set(released.map((r) => r.reference)).size).toBe(PARTICIPANTS * EVENTS);
    await expectLedgerMatchesBalances(database.db);
  }, 120_000);
});
