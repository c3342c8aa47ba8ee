/**
 * CPU time per request of the server process, for A/B comparisons on a shared machine
 * (docs/decisions/028): requests per second move with the neighbours' load, the CPU a process
 * spends per request much less. Starts the portal of each given tree (`--tree=/path`, repeatable;
 * default this one) and the bare Fastify route over one seeded database, then, case by case, sends
 * a fixed number of requests to each server in turn, several rounds, and prints the median
 * µs of CPU (utime+stime from /proc) per request.
 *
 *   node scripts/bench/cpu-per-request.ts [--tree=/other/checkout] [--requests=20000] [--rounds=3]
 *        [--cases=bare,bytes27283,client,bundle,bundle304,clientbr,bundlebr,bundle304br,user,statement,statementbr,healthz,notfound] [--prof=/dir]
 *
 * bundle304 waits forever on trees before decision 028: their 304 announced a 4-byte body it never sent.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/process-settings.ts';
import { freePort } from '../lib/ports.ts';
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
    dir: { type: 'string', default: '/tmp/cpu-per-request' },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const TICK_US = 1_000_000 / 100; // USER_HZ

function ticks(pid: number): number {
  const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(after[11]) + Number(after[12]);
}

interface Server {
  name: string;
  base: string;
  pid: number;
  stop(): Promise<void>;
}

async function startTree(tree: string, databaseUrl: string, index: number): Promise<Server> {
  const port = await freePort();
  const prof = values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values.prof}`, `--cpu-prof-name=tree${index}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...prof, join(tree, 'apps/server/src/main.ts')], {
    cwd: tree,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, WEB_DIST: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/healthz`, 60_000, () => child.exitCode === null, 100);
  return {
    name: `tree${index} ${tree}`,
    base,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function fire(url: string, headers: Record<string, string>, amount: number): Promise<{ non2xx: number; errors: number; rps: number }> {
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
const dbFile = join(values.dir, 'bench.db');
const databaseUrl = `file:${dbFile}`;
if (!existsSync(dbFile)) {
  await seedDemo(databaseUrl);
  await addBenchData(databaseUrl, 10);
}
const bare = await startBare();
const barePid = bare.pid;
const servers: Server[] = [];
try {
  for (const [i, tree] of values.tree.entries()) servers.push(await startTree(tree, databaseUrl, i));
  const session = await signIn(servers[0]!.base, 'demo');
  const statementSession = await signIn(servers[0]!.base, STATEMENT_USER);
  const statementPath = `/api/v1.0/user/account/statement?username=${STATEMENT_USER}&locale=en-US`;
  // Sessions are per database: one sign-in serves every tree.
  // Each form of a bundle has its own ETag (decision 032): the uncompressed one's and brotli's, from
  // the last tree given (a tree before 032 tags only the uncompressed form).
  const etagOf = async (acceptEncoding: string) =>
    (await fetch(`${servers.at(-1)!.base}/api/v1.0/viewConfig/bundle/fr-FR`, { headers: { ...apiHeaders(), 'accept-encoding': acceptEncoding } })).headers.get('etag') ?? '';
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
    healthz: { path: '/healthz', headers: {} },
    notfound: { path: '/api/v1.0/nothing-here', headers: apiHeaders() },
  };
  for (const name of values.cases.split(',')) {
    // bytesN: the bare route sending a ready body of N bytes (the floor for client data and bundles).
    const bareUrl = name === 'bare' ? bare.url : name.startsWith('bytes') ? `${bare.url}/bytes/${name.slice(5)}` : undefined;
    const targets = bareUrl
        ? [{ label: 'bare', url: bareUrl, pid: barePid, headers: {} }]
        : servers.map((s, i) => ({ label: `tree${i}`, url: `${s.base}${cases[name]!.path}`, pid: s.pid, headers: cases[name]!.headers }));
    const samples = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    // The load generator's own CPU per request (autocannon runs in this process): it shares the
    // cores with the server in the bench, so what a reply costs it to read counts too (decision 032).
    const clientSamples = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    const notes = new Map<string, string>();
    for (const t of targets) await fire(t.url, t.headers, Math.min(requests, 5000)); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const t of targets) {
        const before = ticks(t.pid);
        const ownBefore = process.cpuUsage();
        const r = await fire(t.url, t.headers, requests);
        const used = ticks(t.pid) - before;
        const own = process.cpuUsage(ownBefore);
        samples.get(t.label)!.push((used * TICK_US) / requests);
        clientSamples.get(t.label)!.push((own.user + own.system) / requests);
        notes.set(t.label, `rps≈${r.rps} non2xx=${r.non2xx} errors=${r.errors}`);
      }
    }
    for (const t of targets) {
      const xs = samples.get(t.label)!;
      const client = median(clientSamples.get(t.label)!);
      console.log(`${name.padEnd(10)} ${t.label.padEnd(6)} median ${median(xs).toFixed(1).padStart(7)} µs/req  [${xs.map((x) => x.toFixed(1)).join(', ')}]  load generator ${client.toFixed(1)} µs/req  ${notes.get(t.label)}`);
    }
  }
} finally {
  for (const s of servers) await s.stop();
  await bare.stop();
}
