/**
 * Where the server's memory goes (docs/decisions/058): starts the portal on a copy of one
 * seeded database, reads its resident memory after start and after a FIXED number of requests
 * (a load by duration serves fewer requests on a busy machine and so "uses less memory"), and,
 * through scripts/bench/memory-probe.js, V8's view of it. Figures of one run are comparable with
 * each other; compare variants in the same minute.
 *
 * Prints resident memory after each load and judges it as the bench does (memory.ts judgeMemory):
 * read once the work the load left in the server's thread pool has ended (memory.ts rssAfterLoad),
 * the reading at the instant beside it.
 *
 * Usage: node scripts/bench/memory-run.ts [--server=js|ts] [--flags="--max-old-space-size=96 …"]
 *          [--env=NAME=value …] [--scale=1] [--big]
 *   --server  js: the built apps/server/dist/main.js (as `npm start`), ts: the sources
 *   --flags   node flags instead of process-settings.ts's SERVER_NODE_FLAGS ("" for none)
 *   --scale   multiplies the request counts (0.25 for a quick look)
 *   --big     adds 16 concurrent 10,000-entry statements (the live heap's worst case)
 *   --logins  sign-ins at the end of the load (default 60; argon2id, 4 at a time)
 *   --maps    also prints where the anonymous memory is after each step (from /proc/<pid>/smaps)
 *   --seconds a load by duration instead (like the bench: each case for 2 + N seconds, sign-ins for
 *             N seconds), to see what the bench's own figure depends on
 *   --settle  seconds after the load's end at which to report again (default "1,3,10"; "" for none),
 *             then once more after a forced full garbage collection (--no-gc to skip it; with it the
 *             server runs with --expose-gc, which only adds the `gc` function)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../apps/server/src/process-settings.ts';
import { ensureServerBuild, SERVER_MAIN_JS } from '../build-server.ts';
import { freePort } from '../lib/ports.ts';
import { processTicks, TICKS_PER_SECOND } from './cpu.ts';
import { judgeMemory, MEMORY_CEILING_MB, MEMORY_GROWTH_LIMIT, rssAfterLoad, type RssAfterLoad } from './memory.ts';
import { addBenchData, apiHeaders, benchCode, REDEEM_USER, seedDemo, signIn, STATEMENT_USER } from './fixtures.ts';
import { ROOT, waitFor200, WEB_DIST } from './portal.ts';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'js' },
    flags: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    scale: { type: 'string', default: '1' },
    big: { type: 'boolean', default: false },
    maps: { type: 'boolean', default: false },
    logins: { type: 'string', default: '60' },
    seconds: { type: 'string' },
    settle: { type: 'string', default: '1,3,10' },
    gc: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const scale = Number(values.scale);
const seconds = values.seconds === undefined ? undefined : Number(values.seconds);
// By duration: enough distinct codes for 5,000 redemptions/s (as the bench seeds).
const REDEEMS = seconds === undefined ? Math.round(5_000 * scale) : Math.max(10_000, 5_000 * (seconds + 2));
const dir = join(ROOT, '.tmp', 'memory-run');
const seeded = join(dir, `seeded-${REDEEMS}.db`);
const flags = values.flags === undefined ? [...SERVER_NODE_FLAGS] : values.flags.split(' ').filter(Boolean);

mkdirSync(dir, { recursive: true });
if (!existsSync(seeded)) {
  console.log('seeding the bench database once');
  await seedDemo(`file:${seeded}`);
  await addBenchData(`file:${seeded}`, REDEEMS);
}
const database = join(dir, `run-${process.pid}.db`);
for (const suffix of ['', '-wal', '-shm']) if (existsSync(seeded + suffix)) copyFileSync(seeded + suffix, database + suffix);

let main = join(ROOT, 'apps', 'server', 'src', 'main.ts');
if (values.server === 'js') {
  await ensureServerBuild();
  main = SERVER_MAIN_JS;
}
const probeFile = join(dir, `probe-${process.pid}.json`);
const port = await freePort();
const env: Record<string, string> = {
  ...SERVER_ENV,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: `file:${database}`,
  WEB_DIST,
  LOG_LEVEL: 'warn',
  OTS_MAX_FAILURES_PER_PARTICIPANT: '1000000',
  MEMORY_PROBE_FILE: probeFile,
};
for (const pair of values.env) {
  const at = pair.indexOf('=');
  env[pair.slice(0, at)] = pair.slice(at + 1);
}
const child = spawn(
  process.execPath,
  [...flags, ...(values.gc ? ['--expose-gc'] : []), '--import', join(import.meta.dirname, 'memory-probe.js'), main],
  {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const alive = () => child.exitCode === null && child.signalCode === null;
const base = `http://127.0.0.1:${port}`;

/** CPU seconds the server process has used (user + system, all threads). */
function cpuSeconds(): number {
  return processTicks(child.pid!) / TICKS_PER_SECOND;
}

function status(): { rss: number; anon: number; file: number } {
  const text = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (name: string) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024);
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

/** V8's view, read in the server by scripts/bench/memory-probe.js (after a full collection with `gc`). */
async function probe(gc?: 'regular' | 'last-resort'): Promise<string> {
  rmSync(probeFile, { force: true });
  if (gc) writeFileSync(`${probeFile}.gc`, gc);
  child.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(probeFile); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return existsSync(probeFile) ? readFileSync(probeFile, 'utf8') : '(no probe)';
}

/**
 * Resident anonymous memory by kind: malloc's main heap ([heap]), malloc's thread arenas (64 MB
 * aligned reservations), V8's executable code range (rwx), and the other anonymous maps (mostly
 * V8's heap pages) by size.
 */
function anonymousMaps(): string {
  const groups = new Map<string, number>();
  let current = '';
  for (const line of readFileSync(`/proc/${child.pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1]!, 16);
      const size = (parseInt(head[2]!, 16) - start) / 1024;
      const name = head[5]!.trim();
      const perms = head[3]!;
      if (name !== '') current = name.startsWith('[') ? name : '';
      else if (perms.includes('x')) current = 'V8 code (rwx)';
      else if (start % 2 ** 26 === 0 && size < 65536) current = 'malloc thread arenas';
      else current = `anon ${size >= 1024 ? `${Math.round(size / 1024)}M` : `${size}k`}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) groups.set(current, (groups.get(current) ?? 0) + Number(rss[1]));
  }
  return [...groups]
    .filter(([, kb]) => kb >= 1024)
    .sort((a, b) => b[1] - a[1])
    .map(([k, kb]) => `${k}: ${Math.round(kb / 1024)}`)
    .join(', ');
}

async function report(label: string, gc?: 'regular' | 'last-resort'): Promise<void> {
  const before = status();
  const view = await probe(gc);
  // After a collection, resident memory is read once the probe has answered (the collection's result).
  const s = gc ? status() : before;
  console.log(`${label}: RSS ${s.rss} MB (anon ${s.anon}, file ${s.file}) ${view}`);
  if (values.maps) console.log(`  anonymous maps (MB): ${anonymousMaps()}`);
}

const rssAfterLoads: RssAfterLoad[] = [];

/** A fixed number of requests (autocannon `amount`), 16 connections; with --seconds, a duration. */
async function fixed(name: string, amount: number, options: Partial<autocannon.Options> = {}): Promise<void> {
  const size =
    seconds === undefined ? { amount: Math.max(16, Math.round(amount)) } : { duration: options.connections === 4 ? seconds : seconds + 2 };
  const result = await autocannon({ url: base, connections: 16, ...size, ...options });
  const bad = result.errors + result.non2xx;
  // As the bench reads it: once the work the load left in the server's pool has ended (memory.ts).
  const { mb, instantMb, busyAtInstant, waitedMs } = await rssAfterLoad(child.pid);
  rssAfterLoads.push({ after: name, mb, instantMb });
  console.log(
    `  ${name}: ${result.requests.total} requests, ${Math.round(result.requests.average)}/s${bad ? `, ${result.errors} errors, ${result.non2xx} non-2xx` : ''}; RSS ${mb} MB (${instantMb} at the instant, with ${busyAtInstant ?? '?'} pool threads busy; idle after ${waitedMs} ms)`,
  );
  if (values.maps) console.log(`    anonymous maps (MB): ${anonymousMaps()}`);
}

try {
  await waitFor200(`${base}/healthz`, 60_000, alive);
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(`${values.server} server, flags "${flags.join(' ')}"${values.env.length ? `, env ${values.env.join(' ')}` : ''}`);
  await report('after start');
  const api = `${base}/api/v1.0`;
  const demo = await signIn(base, 'demo');
  const statement = await signIn(base, STATEMENT_USER);
  const redeem = await signIn(base, REDEEM_USER);
  if (values.maps) console.log(`  3 sign-ins: RSS ${status().rss} MB; anonymous maps (MB): ${anonymousMaps()}`);
  const cpuBefore = cpuSeconds();
  const user = { url: `${api}/user`, headers: apiHeaders(demo) };
  const statement200 = { url: `${api}/user/account/statement?username=${STATEMENT_USER}&locale=en-US`, headers: apiHeaders(statement) };
  await fixed('GET user', 20_000 * scale, user);
  await fixed('GET statement (200)', 4_000 * scale, statement200);
  await fixed('GET viewConfig/client', 20_000 * scale, { url: `${api}/viewConfig/client`, headers: apiHeaders() });
  await fixed('GET viewConfig/bundle/en-US', 20_000 * scale, { url: `${api}/viewConfig/bundle/en-US`, headers: apiHeaders() });
  let next = 0;
  await fixed('POST ots/redeem', REDEEMS, {
    url: `${api}/ots/redeem`,
    method: 'POST',
    headers: apiHeaders(redeem),
    requests: [
      {
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          body: JSON.stringify({ code: benchCode(next++ % REDEEMS), userName: REDEEM_USER }),
        }),
      },
    ],
  });
  if (seconds === undefined) {
    await fixed('GET user', 20_000 * scale, user);
    await fixed('GET statement (200)', 4_000 * scale, statement200);
  }
  await fixed('POST login (4 connections)', Number(values.logins) * scale, {
    url: `${api}/login`,
    method: 'POST',
    connections: 4,
    headers: apiHeaders(),
    body: JSON.stringify({ username: 'newbie', password: 'Rewards-2026!' }),
  });
  console.log(`server CPU for the load: ${(cpuSeconds() - cpuBefore).toFixed(1)} s`);
  const verdict = judgeMemory(rssAfterLoads);
  // The same judged on the instant readings (the bench before 28 Nov), for comparison.
  const instant = judgeMemory(rssAfterLoads.map((r) => ({ after: r.after, mb: r.instantMb })));
  console.log(
    `memory budget (max < ${MEMORY_CEILING_MB} MB, ≤ ${MEMORY_GROWTH_LIMIT} × after the first load): first ${verdict.firstMb} MB, max ${verdict.maxMb} MB after ${verdict.maxAfter}: ${verdict.pass ? 'pass' : 'MISS'}` +
      ` (at the instant: first ${instant.firstMb} MB, max ${instant.maxMb} MB after ${instant.maxAfter}: ${instant.pass ? 'pass' : 'MISS'})`,
  );
  const loadEnd = performance.now();
  await report('after the load');
  for (const seconds of values.settle.split(',').filter(Boolean).map(Number)) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, loadEnd + seconds * 1000 - performance.now())));
    await report(`${seconds} s after the load`);
  }
  if (values.gc) {
    await report('after a forced full garbage collection', 'regular');
    await report("after V8's memory-reducing (last-resort) collections", 'last-resort');
  }
  if (values.big) {
    const big = await signIn(base, 'bigspender');
    await fixed('GET statement (10,000 entries), 16 at once', 64, {
      timeout: 120,
      url: `${api}/user/account/statement?username=bigspender&locale=en-US`,
      headers: apiHeaders(big),
    });
    await report('after the 10,000-entry statements');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await report('3 s later');
    if (values.gc) {
      await report('after a forced full garbage collection', 'regular');
      await report("after V8's memory-reducing (last-resort) collections", 'last-resort');
    }
  }
  if (!alive()) throw new Error('the server stopped during the load');
} finally {
  if (alive()) child.kill('SIGTERM');
  await new Promise((resolve) => (alive() ? child.once('exit', resolve) : resolve(undefined)));
  console.log(`server exit: ${child.exitCode ?? child.signalCode}`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(database + suffix, { force: true });
  rmSync(probeFile, { force: true });
  rmSync(`${probeFile}.gc`, { force: true });
}
