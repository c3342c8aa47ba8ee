/**
 * CPU time per request of the server process, for A/B comparisons on a shared machine
 * (docs/decisions/016): requests per second move with the neighbours' load, the CPU a process
 * spends per request much less. Starts the portal of each given tree (`--tree=/path`, repeatable;
 * default this one) and the bare Fastify route over one seeded database, then, case by case, sends
 * a fixed number of requests to each server in turn, several rounds, and prints the median
 * µs of CPU (utime+stime from /proc) per request.
 *
 *   node scripts/bench/cpu-per-request.ts [--tree=/other/checkout] [--requests=20000] [--rounds=3]
 *        [--cases=bare,bytes27283,client,bundle,bundle304,clientbr,bundlebr,bundle304br,user,statement,statementbr,big,bigbr,healthz,notfound]
 *        [--prof=/dir] [--gc] [--postgres] [--flags="node flags" …]
 *
 * --gc starts the portals with --trace-gc and adds the kB of JavaScript heap allocated per request
 * (what each scavenge found minus what the previous collection left; docs/decisions/016).
 * --postgres: the trees run on a throwaway PostgreSQL server instead of a SQLite file, and each
 * line also gives the µs per request of the PostgreSQL processes (postmaster and backends) and
 * of this process, which generates the load (decision 034).
 *
 * --flags, given once per --tree in the same order, starts that tree with these node flags instead
 * of process-settings.ts's SERVER_NODE_FLAGS ("" for none): the same tree twice with two sets of
 * flags compares the flags (decision 058).
 *
 * --env, given once per --tree in the same order, adds environment variables to that tree's server
 * (space-separated NAME=value, "" for none): the same tree with and without METRICS_PORT measures
 * what the metrics' hooks cost a request (decision 079).
 *
 * bundle304 waits forever on trees before decision 028: their 304 announced a 4-byte body it never sent.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../apps/server/src/process-settings.ts';
import { freePort } from '../lib/ports.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../lib/postgres.ts';
import { ownCpuMicros, processTicks, processTreeTicks, TICKS_PER_SECOND } from './cpu.ts';
import { addBenchData, apiHeaders, BROWSER_ACCEPT_ENCODING, seedDemo, signIn, STATEMENT_USER } from './fixtures.ts';
import { ROOT, waitFor200 } from './portal.ts';

const { values } = parseArgs({
  options: {
    tree: { type: 'string', multiple: true, default: [ROOT] },
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    cases: { type: 'string', default: 'bare,client,bundle,user' },
    connections: { type: 'string', default: '16' },
    prof: { type: 'string' },
    gc: { type: 'boolean', default: false },
    dir: { type: 'string', default: '/tmp/cpu-per-request' },
    postgres: { type: 'boolean', default: false },
    flags: { type: 'string', multiple: true, default: [] },
    env: { type: 'string', multiple: true, default: [] },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const TICK_US = 1_000_000 / TICKS_PER_SECOND;

interface Server {
  name: string;
  base: string;
  pid: number;
  /** MB of heap allocated so far, from --trace-gc (0 without --gc). */
  allocatedMb(): number;
  stop(): Promise<void>;
}

/** Sums, over --trace-gc lines (`Scavenge 5.1 (6.0) -> 4.3 (6.5) MB`), the growth since the previous collection. */
function allocationCounter(): { line(text: string): void; total(): number } {
  let total = 0;
  let lastAfter: number | undefined;
  return {
    line(text) {
      const m = /(Scavenge|Mark-Compact|Mark-sweep)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(text);
      if (!m) return;
      const before = Number(m[2]);
      if (lastAfter !== undefined && before > lastAfter) total += before - lastAfter;
      lastAfter = Number(m[3]);
    },
    total: () => total,
  };
}

async function startTree(tree: string, databaseUrl: string, index: number): Promise<Server> {
  const given = values.flags[index];
  const extraEnv = Object.fromEntries(
    (values.env[index] ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const flags = given === undefined ? [...SERVER_NODE_FLAGS] : given.split(' ').filter(Boolean);
  const port = await freePort();
  const prof = values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values.prof}`, `--cpu-prof-name=tree${index}.cpuprofile`] : [];
  const gc = values.gc ? ['--trace-gc'] : [];
  const child = spawn(process.execPath, [...flags, ...prof, ...gc, join(tree, 'apps/server/src/main.ts')], {
    cwd: tree,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', values.gc ? 'pipe' : 'inherit', 'inherit'],
  });
  const allocation = allocationCounter();
  if (child.stdout) {
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) allocation.line(line);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/healthz`, 60_000, () => child.exitCode === null, 100);
  return {
    name: `tree${index} ${tree}${given === undefined ? '' : ` [${given}]`}${values.env[index] ? ` {${values.env[index]}}` : ''}`,
    base,
    pid: child.pid!,
    allocatedMb: allocation.total,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function fire(
  url: string,
  headers: Record<string, string>,
  amount: number,
): Promise<{ non2xx: number; errors: number; rps: number }> {
  const result = await autocannon({ url, headers, connections, amount });
  return { non2xx: result.non2xx, errors: result.errors, rps: Math.round(result.requests.average) };
}

/** The bench's bare Fastify route (scripts/bench/bare-server.ts), with its pid. */
async function startBare(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return {
    url: `http://127.0.0.1:${port}/bare`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

mkdirSync(values.dir, { recursive: true });
let pg: ThrowawayPostgres | undefined;
let databaseUrl: string;
if (values.postgres) {
  pg = await startThrowawayPostgres();
  databaseUrl = pg.url;
  await seedDemo(databaseUrl);
  await addBenchData(databaseUrl, 10);
} else {
  const dbFile = join(values.dir, 'bench.db');
  databaseUrl = `file:${dbFile}`;
  if (!existsSync(dbFile)) {
    await seedDemo(databaseUrl);
    await addBenchData(databaseUrl, 10);
  }
}
const pgPid = pg?.pid;
const bare = await startBare();
const barePid = bare.pid;
const servers: Server[] = [];
try {
  for (const [i, tree] of values.tree.entries()) servers.push(await startTree(tree, databaseUrl, i));
  const session = await signIn(servers[0]!.base, 'demo');
  const statementSession = await signIn(servers[0]!.base, STATEMENT_USER);
  const statementPath = `/api/v1.0/user/account/statement?username=${STATEMENT_USER}&locale=en-US`;
  const bigSession = await signIn(servers[0]!.base, 'bigspender');
  const bigPath = '/api/v1.0/user/account/statement?username=bigspender&locale=en-US';
  // Sessions are per database: one sign-in serves every tree.
  // A bundle's ETag as each form is asked for: one weak tag for every form since decision 056 (older
  // trees tagged each form, or only the uncompressed one), from the last tree given.
  const etagOf = async (acceptEncoding: string) =>
    (
      await fetch(`${servers.at(-1)!.base}/api/v1.0/viewConfig/bundle/fr-FR`, {
        headers: { ...apiHeaders(), 'accept-encoding': acceptEncoding },
      })
    ).headers.get('etag') ?? '';
  const etag = await etagOf('identity');
  const brEtag = await etagOf(BROWSER_ACCEPT_ENCODING);
  const browser = { ...apiHeaders(), 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const cases: Record<string, { path: string; headers: Record<string, string> }> = {
    client: { path: '/api/v1.0/viewConfig/client', headers: apiHeaders() },
    bundle: { path: '/api/v1.0/viewConfig/bundle/fr-FR', headers: apiHeaders() },
    bundle304: { path: '/api/v1.0/viewConfig/bundle/fr-FR', headers: { ...apiHeaders(), 'if-none-match': etag } },
    // As a browser asks: brotli.
    clientbr: { path: '/api/v1.0/viewConfig/client', headers: browser },
    bundlebr: { path: '/api/v1.0/viewConfig/bundle/fr-FR', headers: browser },
    bundle304br: { path: '/api/v1.0/viewConfig/bundle/fr-FR', headers: { ...browser, 'if-none-match': brEtag } },
    user: { path: '/api/v1.0/user', headers: apiHeaders(session) },
    statement: { path: statementPath, headers: apiHeaders(statementSession) },
    statementbr: { path: statementPath, headers: { ...apiHeaders(statementSession), 'accept-encoding': BROWSER_ACCEPT_ENCODING } },
    // bigspender's 10,000 entries (decision 044); on a tree before 044 each one is a ~70 ms build: use few --requests.
    big: { path: bigPath, headers: apiHeaders(bigSession) },
    bigbr: { path: bigPath, headers: { ...apiHeaders(bigSession), 'accept-encoding': BROWSER_ACCEPT_ENCODING } },
    healthz: { path: '/healthz', headers: {} },
    notfound: { path: '/api/v1.0/nothing-here', headers: apiHeaders() },
  };
  for (const name of values.cases.split(',')) {
    // bytesN: the bare route sending a ready body of N bytes (the floor for client data and bundles).
    const bareUrl = name === 'bare' ? bare.url : name.startsWith('bytes') ? `${bare.url}/bytes/${name.slice(5)}` : undefined;
    const targets = bareUrl
      ? [{ label: 'bare', url: bareUrl, pid: barePid, headers: {} }]
      : servers.map((s, i) => ({
          label: `tree${i}`,
          url: `${s.base}${cases[name]!.path}`,
          pid: s.pid,
          headers: cases[name]!.headers,
          allocatedMb: s.allocatedMb,
        }));
    const samples = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    const allocations = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    const pgSamples = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    // The load generator's own CPU per request (autocannon runs in this process): it shares the
    // cores with the server in the bench, so what a reply costs it to read counts too (decision 016).
    const ownSamples = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    const notes = new Map<string, string>();
    for (const t of targets) await fire(t.url, t.headers, Math.min(requests, 5000)); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const t of targets) {
        const allocatedBefore = 'allocatedMb' in t ? t.allocatedMb() : 0;
        const before = processTicks(t.pid);
        const pgBefore = pgPid ? processTreeTicks(pgPid) : 0;
        const ownBefore = ownCpuMicros();
        const r = await fire(t.url, t.headers, requests);
        const used = processTicks(t.pid) - before;
        samples.get(t.label)!.push((used * TICK_US) / requests);
        if ('allocatedMb' in t) allocations.get(t.label)!.push(((t.allocatedMb() - allocatedBefore) * 1024) / requests);
        if (pgPid) pgSamples.get(t.label)!.push(((processTreeTicks(pgPid) - pgBefore) * TICK_US) / requests);
        ownSamples.get(t.label)!.push((ownCpuMicros() - ownBefore) / requests);
        notes.set(t.label, `rps≈${r.rps} non2xx=${r.non2xx} errors=${r.errors}`);
      }
    }
    const show = (xs: number[]) => `${median(xs).toFixed(1).padStart(7)} µs/req  [${xs.map((x) => x.toFixed(1)).join(', ')}]`;
    for (const t of targets) {
      const kb = allocations.get(t.label)!;
      const heap = values.gc && kb.length > 0 ? `  heap ${median(kb).toFixed(2)} kB/req` : '';
      const postgres = pgPid ? `  postgres ${show(pgSamples.get(t.label)!)}` : '';
      console.log(
        `${name.padEnd(10)} ${t.label.padEnd(6)} median ${show(samples.get(t.label)!)}${heap}${postgres}  load generator ${show(ownSamples.get(t.label)!)}  ${notes.get(t.label)}`,
      );
    }
  }
} finally {
  for (const s of servers) await s.stop();
  await bare.stop();
  await pg?.stop();
}
