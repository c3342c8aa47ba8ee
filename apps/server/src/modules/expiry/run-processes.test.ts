import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlOf } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { exited } from '../../../test/server-process.ts';
import { appendLedgerEntries } from '../ledger/bulk.ts';
import type { LedgerMovement } from '../ledger/store.ts';
import { expirePoints } from './run.ts';
import { addExpiryClient, participant } from './test-support.ts';

const CHILD = join(import.meta.dirname, '..', '..', '..', 'test', 'expiry-run-child.ts');
const PARTICIPANTS = 300;
const AS_OF = '2026-03-01';
const CLOCK = new Date('2026-03-01T12:00:00Z');
const minutes = (n: number) => new Date(CLOCK.getTime() + n * 60_000);

/** The run in its own process; `lines` gathers what it prints, `line(match)` waits (with a deadline) for one. */
function runChild(database: TestDatabase, clock: Date, batch: number, hang: boolean) {
  const child: ChildProcess = spawn(
    process.execPath,
    [CHILD, databaseUrlOf(database), AS_OF, clock.toISOString(), String(batch), hang ? 'hang' : ''],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (text) => {
    lines.push(text);
    for (const wake of waiters) wake();
  });
  const line = (match: (text: string) => boolean, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such line within ${timeoutMs} ms: ${lines.join(' | ')}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { child, lines, line, exit: exited(child) };
}

/** Two due lots (10 and 20 Jan under rolling 1 month) and one not due per participant. */
async function addClientWithDueLots(database: TestDatabase, clientId: string): Promise<void> {
  await addExpiryClient(database.db, clientId, PARTICIPANTS, { type: 'rolling', months: 1 });
  const movements: LedgerMovement[] = [];
  for (let n = 0; n < PARTICIPANTS; n += 1)
    for (const [day, amount] of [
      ['2026-01-10', 10 + (n % 7)],
      ['2026-01-20', 20],
      ['2026-02-15', 5],
    ] as const)
      movements.push({
        clientId,
        participantId: participant(clientId, n),
        occurredAt: `${day}T12:00:00.000Z`,
        description: 'Earned',
        amount,
        kind: 'award',
      });
  await database.db.transaction().execute((trx) => appendLedgerEntries(trx, clientId, movements, CLOCK));
}

/** Each participant of the client has exactly one expiry entry, and each lot was expired at most once. */
async function expectExpiredOnce(database: TestDatabase, clientId: string): Promise<void> {
  const entries = await database.db
    .selectFrom('ledger_entries')
    .select(['participant_id', 'amount'])
    .where('client_id', '=', clientId)
    .where('kind', '=', 'expiry')
    .execute();
  expect(entries).toHaveLength(PARTICIPANTS);
  expect(new Set(entries.map((e) => e.participant_id)).size).toBe(PARTICIPANTS);
  const twice = await database.db
    .selectFrom('lot_consumptions as c')
    .innerJoin('ledger_entries as e', 'e.id', 'c.entry_id')
    .innerJoin('point_lots as l', 'l.id', 'c.lot_id')
    .select('c.lot_id')
    .where('e.kind', '=', 'expiry')
    .where('l.client_id', '=', clientId)
    .groupBy('c.lot_id')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  expect(twice).toEqual([]);
  const open = await database.db
    .selectFrom('point_lots')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('client_id', '=', clientId)
    .where('remaining', '>', 0)
    .where('expires_on', '<', AS_OF)
    .executeTakeFirstOrThrow();
  expect(Number(open.n)).toBe(0);
  await expectLedgerMatchesBalances(database.db);
}

describe.each(dialects)('the expiry run across processes on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await addClientWithDueLots(database, 'killed');
    await addClientWithDueLots(database, 'pair');
  }, 120_000);
  afterAll(() => database.drop());

  it('kill -9 half-way keeps what was committed; a re-run (once the lease ran out) finishes, every lot expired once', async () => {
    const run = runChild(database, CLOCK, 50, true);
    try {
      await run.line((text) => text.startsWith('batch'));
    } finally {
      run.child.kill('SIGKILL');
    }
    await run.exit;
    const expired = await database.db.selectFrom('ledger_entries').select('participant_id').where('kind', '=', 'expiry').execute();
    // The first client ("killed") had its first batch of 50 committed, no more.
    expect(expired).toHaveLength(50);
    await expectLedgerMatchesBalances(database.db);
    // The dead process still holds the lease for its two minutes.
    expect(await expirePoints(database.db, { asOf: AS_OF, now: () => minutes(1) })).toEqual({ status: 'busy', clients: [] });
    const rerun = await expirePoints(database.db, { clientId: 'killed', asOf: AS_OF, now: () => minutes(3) });
    expect(rerun).toMatchObject({ status: 'done', clients: [{ clientId: 'killed', participants: PARTICIPANTS - 50 }] });
    await expectExpiredOnce(database, 'killed');
  }, 120_000);

  it('two processes started together: one at a time works, and between them every participant is expired once', async () => {
    const runs = [runChild(database, minutes(10), 20, false), runChild(database, minutes(10), 20, false)];
    const codes = await Promise.all(runs.map((r) => r.exit));
    expect(codes).toEqual([0, 0]);
    const results = runs.map(
      (r) => JSON.parse(r.lines[r.lines.length - 1]!) as { status: string; clients: Array<{ clientId: string; participants: number }> },
    );
    expect(results.some((r) => r.status === 'done')).toBe(true);
    // Whoever ran second (if not turned away) found nothing left.
    const pair = results.flatMap((r) => r.clients.filter((c) => c.clientId === 'pair').map((c) => c.participants));
    expect(pair.reduce((a, b) => a + b, 0)).toBe(PARTICIPANTS);
    await expectExpiredOnce(database, 'pair');
  }, 120_000);
});
