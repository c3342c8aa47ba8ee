/**
 * Where a redemption's time goes (issue 18: redemptions at least the disk's raw durable
 * single-row commit rate). Starts the portal as the bench does on a fresh database with the bench's
 * codes, sends a fixed number of `POST ots/redeem` (distinct codes, 16 connections), and prints
 * the server's CPU µs per redemption, the fsyncs the server made (from `perf stat`, when perf can
 * count the process's fsync/fdatasync calls) and so the redemptions each commit carried, beside
 * the raw commit rate of the same disk (raw-commit.ts).
 *
 *   node scripts/bench/redeem-cost.ts [--requests=6000] [--prof=/dir]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { redeemBodies } from './api.ts';
import { processTicks, TICKS_PER_SECOND } from './cpu.ts';
import { addBenchData, apiHeaders, REDEEM_USER, seedDemo, signIn } from './fixtures.ts';
import { startPortal } from './portal.ts';
import { rawCommitRate } from './raw-commit.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '6000' }, prof: { type: 'string' } } });
const requests = Number(values.requests);
const dir = mkdtempSync(join(tmpdir(), 'redeem-cost-'));
try {
  const databaseUrl = `file:${join(dir, 'rewards.db')}`;
  await seedDemo(databaseUrl);
  await addBenchData(databaseUrl, requests + 1000);
  const flags = values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values.prof}`] : [];
  const portal = await startPortal(databaseUrl, join(dir, 'server.log'), { OTS_MAX_FAILURES_PER_PARTICIPANT: '1000000' }, flags);
  try {
    const session = await signIn(portal.baseUrl, REDEEM_USER);
    const nextBody = redeemBodies();
    const fire = (amount: number) =>
      autocannon({
        url: `${portal.baseUrl}/api/v1.0/ots/redeem`,
        method: 'POST',
        headers: apiHeaders(session),
        requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: nextBody() }) }],
        connections: 16,
        amount,
      });
    await fire(500); // warm-up
    const perf = spawn('perf', ['stat', '-x,', '-e', 'syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync', '-p', String(portal.pid)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let perfOut = '';
    perf.stderr.on('data', (chunk: Buffer) => (perfOut += chunk.toString()));
    perf.on('error', () => undefined);
    const perfDone = new Promise<void>((resolve) => perf.once('close', () => resolve()));
    const before = processTicks(portal.pid);
    const started = performance.now();
    const result = await fire(requests);
    const seconds = (performance.now() - started) / 1000;
    const cpuUs = ((processTicks(portal.pid) - before) * 1_000_000) / TICKS_PER_SECOND / result['2xx'];
    perf.kill('SIGINT');
    await perfDone;
    const syncs = perfOut
      .split('\n')
      .map((line) => Number(line.split(',')[0]))
      .filter((n) => Number.isFinite(n) && n > 0)
      .reduce((a, b) => a + b, 0);
    const raw = rawCommitRate(dir, 4);
    console.log(
      `redemptions: ${result['2xx']} of ${requests} answered 200 in ${seconds.toFixed(1)} s (${Math.round(result['2xx'] / seconds)}/s), ` +
        `server CPU ${cpuUs.toFixed(0)} µs each (a core allows ${Math.round(1_000_000 / cpuUs)}/s)`,
    );
    console.log(
      syncs > 0
        ? `fsync/fdatasync calls of the server: ${syncs} (${(result['2xx'] / syncs).toFixed(1)} redemptions per call)`
        : `fsync calls not counted (perf stat unavailable: ${perfOut.split('\n')[0] ?? ''})`,
    );
    console.log(`raw durable single-row commits on the same disk: ${raw.commitsPerSecond}/s`);
  } finally {
    await portal.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
