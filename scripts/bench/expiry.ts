/**
 * Points that expire at scale (issue 19, docs/decisions/057), on the embedded default (SQLite
 * through the portal's own driver, synchronous=FULL):
 *   1. imports 1,000,000 credits for 100,000 participants through the ledger's bulk path (each
 *      credit a lot, rolling policy of one month), in transactions of 50,000 lines;
 *   2. expires them all with the expiry run, as the daily worker or `rewards points expire` does,
 *      sampling the process's memory every 100 ms;
 *   3. rebuilds the lots of the whole ledger (2,000,000 entries by then) with migration 026's
 *      statements, as an upgrade of such a database would.
 *
 * Usage: node scripts/bench/expiry.ts [--participants 100000] [--lots 10] [--keep]
 * (npm run bench does not run it: it is a part of its own; figures in the README.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { lotsFromLedger } from '../../apps/server/src/db/migrations/026-lots-from-ledger.ts';
import { expirePoints } from '../../apps/server/src/modules/expiry/run.ts';
import { addExpiryClient, participant } from '../../apps/server/src/modules/expiry/test-support.ts';
import { appendLedgerEntries } from '../../apps/server/src/modules/ledger/bulk.ts';
import type { LedgerMovement } from '../../apps/server/src/modules/ledger/store.ts';

const { values } = parseArgs({
  options: { participants: { type: 'string', default: '100000' }, lots: { type: 'string', default: '10' }, keep: { type: 'boolean' } },
});
const PARTICIPANTS = Number(values.participants);
const LOTS = Number(values.lots);
const CHUNK = 50_000;
const CLIENT = 'bench-expiry';

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** CPU seconds (user + system) since `from`: the figure that holds on a machine shared with other work. */
function cpuSince(from: NodeJS.CpuUsage): string {
  const used = process.cpuUsage(from);
  return `${((used.user + used.system) / 1e6).toFixed(1)} s CPU`;
}

function memorySampler() {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  };
  sample();
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return { peakRssMb: mb(peakRss), peakHeapMb: mb(peakHeap) };
  };
}

const dir = mkdtempSync(join(tmpdir(), 'rewards-bench-expiry-'));
const db = createDatabase({ dialect: 'sqlite', path: join(dir, 'rewards.db') });
try {
  await migrateToLatest(db);
  await addExpiryClient(db, CLIENT, PARTICIPANTS, { type: 'rolling', months: 1 });

  // 1. The credits: participant by participant, each earning on LOTS different days of January.
  let started = performance.now();
  let cpu = process.cpuUsage();
  let movements: LedgerMovement[] = [];
  const flush = async () => {
    const batch = movements;
    movements = [];
    await db.transaction().execute((trx) => appendLedgerEntries(trx, CLIENT, batch, new Date('2026-02-01T00:00:00Z')));
  };
  for (let n = 0; n < PARTICIPANTS; n += 1) {
    for (let lot = 0; lot < LOTS; lot += 1) {
      movements.push({
        clientId: CLIENT,
        participantId: participant(CLIENT, n),
        occurredAt: new Date(Date.UTC(2026, 0, 1 + ((n + lot * 3) % 31), 12)).toISOString(),
        description: 'Earned',
        amount: 10 + ((n * 7 + lot) % 90),
        kind: 'award',
      });
    }
    if (movements.length >= CHUNK) await flush();
  }
  if (movements.length > 0) await flush();
  const importSeconds = (performance.now() - started) / 1000;
  const credits = PARTICIPANTS * LOTS;
  console.log(
    `import: ${credits.toLocaleString('en')} credits with their lots in ${importSeconds.toFixed(1)} s, ${cpuSince(cpu)} (${Math.round(credits / importSeconds).toLocaleString('en')} lines/s)`,
  );

  // 2. The run: everything is past its day by 1 April.
  const stop = memorySampler();
  started = performance.now();
  cpu = process.cpuUsage();
  const result = await expirePoints(db, { clientId: CLIENT, asOf: '2026-04-01', now: () => new Date('2026-04-01T12:00:00Z') });
  const runSeconds = (performance.now() - started) / 1000;
  const memory = stop();
  const client = result.clients[0]!;
  console.log(
    `expiry run: ${client.lots.toLocaleString('en')} lots, ${client.points.toLocaleString('en')} points of ${client.participants.toLocaleString('en')} participants in ${runSeconds.toFixed(1)} s, ${cpuSince(cpu)}; peak RSS ${memory.peakRssMb} MB, peak heap ${memory.peakHeapMb} MB`,
  );

  // 3. Migration 026 over the whole ledger (credits and the run's expiry debits).
  const entries = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  started = performance.now();
  cpu = process.cpuUsage();
  // The migration takes any Kysely (migrations know no table types).
  await lotsFromLedger(db as unknown as Kysely<unknown>);
  const migrationSeconds = (performance.now() - started) / 1000;
  console.log(
    `migration 026: lots and consumptions of ${Number(entries.n).toLocaleString('en')} entries in ${migrationSeconds.toFixed(1)} s, ${cpuSince(cpu)}`,
  );
} finally {
  await db.destroy();
  if (values.keep) console.log(`database kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
