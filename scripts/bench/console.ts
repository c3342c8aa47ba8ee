/**
 * The console's reads through HTTP (issue 17, docs/decisions/047): the demo program plus the
 * search part's million participants (search-data.ts) in one fresh SQLite file, the built server
 * started on it as `npm start` runs it, the demo owner signed in with password and TOTP; then
 * each case runs sequentially on one keep-alive connection over loopback: WARMUP calls, then
 * REPEAT timed ones; median and 95th percentile of the time from request to the reply's last
 * byte (the server's time plus a loopback round trip, so a little above it). No web app is
 * served (WEB_DIST empty): the console's API needs none.
 */
import { request, Agent } from 'node:http';
import { join } from 'node:path';
import { CONSOLE_API_BASE } from '../../packages/contract/src/console.ts';
import { consoleAuditPaths, consoleParticipantPaths } from '../../packages/contract/src/console-participants.ts';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD } from '../../apps/server/src/db/seed/demo-staff.ts';
import { totpCode } from '../../apps/server/src/modules/staff/secrets.ts';
import { CLIENT_ID, openDatabase, seedDemo } from './fixtures.ts';
import { median } from './history.ts';
import { startPortal } from './portal.ts';
import { addSearchClients, fillSqlite } from './search-data.ts';
import { percentile } from './search.ts';

export const CONSOLE_SEARCH_BUDGET_MS = 50;
const REPEAT = 100;
const WARMUP = 5;
const CONSOLE_HOST = 'console.localhost';

export interface ConsoleCase {
  name: string;
  path: string;
  bytes: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface ConsoleResults {
  participants: number;
  generationSeconds: number;
  cases: ConsoleCase[];
  /** The SQLite file measured, left for the search part to measure too. */
  sqliteFile: string;
}

interface Reply {
  status: number;
  body: string;
  cookies: string[];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export async function runConsole(dir: string, log: (line: string) => void, options: { participants: number }): Promise<ConsoleResults> {
  const started = performance.now();
  const path = join(dir, 'console.db');
  const databaseUrl = `file:${path}`;
  log('console: seeding the demo program (bigspender, the demo staff)');
  await seedDemo(databaseUrl);
  const db = openDatabase(databaseUrl);
  try {
    await addSearchClients(db);
  } finally {
    await db.destroy();
  }
  log(`console: writing ${options.participants.toLocaleString('en-US')} participants beside it`);
  fillSqlite(path, options.participants);
  const generationSeconds = Math.round((performance.now() - started) / 100) / 10;
  log(`console: data ready in ${generationSeconds} s; starting the portal`);

  const portal = await startPortal(databaseUrl, join(dir, 'console-server.log'), {
    CONSOLE_ORIGIN: `http://${CONSOLE_HOST}`,
    WEB_DIST: '',
  });
  const { port } = new URL(portal.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method: 'GET' | 'POST', url: string, cookie?: string, body?: unknown) =>
    new Promise<Reply>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: `${CONSOLE_API_BASE}${url}`,
          agent,
          headers: {
            host: CONSOLE_HOST,
            ...(method === 'POST' ? { origin: `http://${CONSOLE_HOST}` } : {}),
            ...(payload ? { 'content-type': 'application/json' } : {}),
            ...(cookie ? { cookie } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              cookies: [res.headers['set-cookie'] ?? []].flat(),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  try {
    const owner = DEMO_STAFF.find((s) => s.owner);
    if (!owner) throw new Error('the demo seed has no owner');
    const first = await call('POST', '/sign-in', undefined, { email: owner.email, password: DEMO_STAFF_PASSWORD });
    const half = first.cookies[0]?.split(';')[0];
    if (first.status !== 200 || !half) throw new Error(`console sign-in: ${first.status} ${first.body.slice(0, 200)}`);
    const second = await call('POST', '/sign-in/totp', half, { code: totpCode(owner.totpSecret) });
    const cookie = second.cookies[0]?.split(';')[0];
    if (second.status !== 200 || !cookie) throw new Error(`console second factor: ${second.status} ${second.body.slice(0, 200)}`);

    const found = JSON.parse((await call('GET', `${consoleParticipantPaths.search}?q=bigspender&clientId=${CLIENT_ID}`, cookie)).body) as {
      participants: Array<{ id: string; username: string }>;
    };
    const big = found.participants.find((p) => p.username === 'bigspender');
    if (!big) throw new Error('bigspender not found through the console search');
    const statement = consoleParticipantPaths.statement(CLIENT_ID, big.id);
    const deep = await deepCursor(call, cookie, statement);

    const cases: Array<{ name: string; path: string }> = [
      { name: 'search, common prefix, every client', path: `${consoleParticipantPaths.search}?q=ma` },
      { name: 'search, first + last, every client', path: `${consoleParticipantPaths.search}?q=${encodeURIComponent('maria garc')}` },
      { name: 'search, e-mail prefix, every client', path: `${consoleParticipantPaths.search}?q=${encodeURIComponent('bigspender@')}` },
      { name: 'search, common prefix, one client', path: `${consoleParticipantPaths.search}?q=ma&clientId=bench-north` },
      { name: "bigspender's page", path: consoleParticipantPaths.participant(CLIENT_ID, big.id) },
      { name: "bigspender's statement, first 50", path: `${statement}?limit=50` },
      { name: "bigspender's statement, 200th page of 50", path: `${statement}?limit=50&after=${deep}` },
      { name: 'audit trail, first 50', path: `${consoleAuditPaths.entries}?limit=50` },
    ];
    const results: ConsoleCase[] = [];
    for (const c of cases) {
      const samples: number[] = [];
      let bytes = 0;
      for (let run = 0; run < WARMUP + REPEAT; run += 1) {
        const start = performance.now();
        const reply = await call('GET', c.path, cookie);
        const ms = performance.now() - start;
        if (reply.status !== 200) throw new Error(`${c.name}: ${reply.status} ${reply.body.slice(0, 200)}`);
        bytes = Buffer.byteLength(reply.body);
        if (run >= WARMUP) samples.push(ms);
      }
      const result = {
        ...c,
        bytes,
        medianMs: round1(median(samples)),
        p95Ms: round1(percentile(samples, 95)),
        maxMs: round1(Math.max(...samples)),
      };
      log(`  console ${c.name}: median ${result.medianMs} ms, p95 ${result.p95Ms} ms (${bytes} bytes)`);
      results.push(result);
    }
    return { participants: options.participants, generationSeconds, cases: results, sqliteFile: path };
  } finally {
    agent.destroy();
    await portal.stop();
  }
}

/** The cursor of the statement's 200th page of 50 (entries 9,951–10,000 of 10,000), paged to once. */
async function deepCursor(
  call: (method: 'GET', url: string, cookie: string) => Promise<Reply>,
  cookie: string,
  statement: string,
): Promise<string> {
  let after = '';
  for (let page = 1; page < 200; page += 1) {
    const reply = await call('GET', `${statement}?limit=50${after ? `&after=${after}` : ''}`, cookie);
    const next = (JSON.parse(reply.body) as { next: string | null }).next;
    if (reply.status !== 200 || next === null) throw new Error(`the statement ended before page ${page + 1}`);
    after = next;
  }
  return after;
}
