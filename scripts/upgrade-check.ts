/**
 * `npm run upgrade-check [-- <commit>] [--npm-ci] [--keep]`: does a rolling upgrade hold? (issue 28
 * §5, docs/decisions/080). The earlier version (default: the commit before the last one that
 * changed apps/server/src/db/migrations; or any commit, e.g. HEAD~3) is checked out in a git
 * worktree under a temp directory; it makes the demo database, and its server serves a copy of
 * it; today's code (this working tree) migrates the copy under it; the earlier server must go on
 * serving the participant reads (login, GET user, the statement), also of rows today's server
 * writes beside it. Last, a restart of the earlier server on the migrated copy is refused (a
 * process never starts on a database a newer version migrated). Prints what it checked; exit 1
 * when a check fails. Not part of `npm test`.
 *
 * The worktree reuses this checkout's node_modules (links per package, the workspaces' own
 * packages pointing into the worktree) instead of `npm ci`: it says when the lockfiles differ;
 * --npm-ci installs the earlier lockfile instead (slow).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { freePort } from './lib/ports.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const MIGRATIONS = 'apps/server/src/db/migrations';
const PORTAL = { 'content-type': 'application/json', 'client-id': 'http://localhost:3000' };
const START_DEADLINE_MS = 120_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'npm-ci': { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } },
});

const checks: Array<{ what: string; ok: boolean; detail: string }> = [];
function check(what: string, ok: boolean, detail = ''): void {
  checks.push({ what, ok, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
}

const git = async (...args: string[]) => (await run('git', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();

async function earlierCommit(): Promise<string> {
  if (positionals[0]) return git('rev-parse', '--verify', `${positionals[0]}^{commit}`);
  const last = await git('log', '-1', '--format=%H', '--', MIGRATIONS);
  return git('rev-parse', '--verify', `${last}~1`);
}

/** Every package of the lockfile with its version: what `npm ci` would install. */
function lockedPackages(lock: string): Map<string, string> {
  const parsed = JSON.parse(lock) as { packages?: Record<string, { version?: string }> };
  return new Map(Object.entries(parsed.packages ?? {}).map(([path, p]) => [path, p.version ?? '']));
}

/**
 * node_modules for the worktree: a link to each of this checkout's packages, except the
 * workspaces' own (@rewards/*), which link into the worktree so its sources are the earlier ones;
 * a workspace's own node_modules (a version that could not be hoisted) likewise.
 */
function linkNodeModules(worktree: string): void {
  const modules = join(ROOT, 'node_modules');
  mkdirSync(join(worktree, 'node_modules', '@rewards'), { recursive: true });
  for (const entry of readdirSync(modules)) {
    if (entry === '@rewards') continue;
    symlinkSync(join(modules, entry), join(worktree, 'node_modules', entry));
  }
  for (const name of readdirSync(join(modules, '@rewards'))) {
    // Relative (../../packages/contract): the same link inside the worktree leads to its own sources.
    const target = readlinkSync(join(modules, '@rewards', name));
    if (existsSync(join(worktree, 'node_modules', '@rewards', target)))
      symlinkSync(target, join(worktree, 'node_modules', '@rewards', name));
    else console.log(`  (@rewards/${name}: not a workspace of the earlier commit)`);
  }
  for (const workspace of ['apps/server', 'apps/web', 'apps/console', 'packages/contract', 'packages/translations']) {
    const own = join(ROOT, workspace, 'node_modules');
    if (existsSync(own) && existsSync(join(worktree, workspace))) symlinkSync(own, join(worktree, workspace, 'node_modules'));
  }
}

interface Server {
  child: ChildProcess;
  base: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** `node apps/server/src/main.ts` of a checkout on a database, on a free port, once /healthz answers. */
async function startServer(checkout: string, databaseUrl: string, dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(checkout, 'apps', 'server', 'src', 'main.ts')], {
    cwd: checkout,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      WEB_DIST: '',
      CONSOLE_DIST: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString()}`.slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const server: Server = {
    child,
    base,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    },
  };
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return server;
    try {
      if ((await fetch(`${base}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server of ${checkout} did not answer within ${START_DEADLINE_MS / 1000} s`);
}

interface Reads {
  login: number;
  user: number;
  balance: number | undefined;
  statement: number;
  entries: number | undefined;
}

/** What a participant reads first: sign-in, GET user, the statement. */
async function participantReads(base: string, sessionId?: string): Promise<Reads & { sessionId: string | undefined }> {
  let session = sessionId;
  let login = 0;
  if (session === undefined) {
    const reply = await fetch(`${base}/api/v1.0/login`, {
      method: 'POST',
      headers: PORTAL,
      body: JSON.stringify({ username: 'demo', password: 'Rewards-2026!' }),
    });
    login = reply.status;
    session = reply.ok ? ((await reply.json()) as { sessionId: string }).sessionId : undefined;
  }
  const headers = { ...PORTAL, 'x-session-id': session ?? '' };
  const user = await fetch(`${base}/api/v1.0/user`, { headers });
  const balance = user.ok ? ((await user.json()) as { accountBalance: number }).accountBalance : undefined;
  const statement = await fetch(`${base}/api/v1.0/user/account/statement?username=demo&locale=en-US`, { headers });
  const entries = statement.ok ? ((await statement.json()) as { accountHistoryList: unknown[] }).accountHistoryList.length : undefined;
  return { sessionId: session, login, user: user.status, balance, statement: statement.status, entries };
}

const described = (r: Reads) =>
  `${r.login ? `login ${r.login}, ` : ''}GET user ${r.user} (balance ${r.balance ?? '?'}), statement ${r.statement} (${r.entries ?? '?'} entries)`;

async function main(): Promise<void> {
  const commit = await earlierCommit();
  const subject = await git('log', '-1', '--format=%h %s', commit);
  console.log(`Earlier version: ${subject.slice(0, 120)}`);
  console.log(`Today's code: this working tree (${ROOT})`);
  const tmp = mkdtempSync(join(tmpdir(), 'rewards-upgrade-'));
  const worktree = join(tmp, 'earlier');
  const servers: Server[] = [];
  try {
    await git('worktree', 'add', '--detach', worktree, commit);
    const sameLock = readFileSync(join(worktree, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
    if (values['npm-ci']) {
      console.log('npm ci in the worktree (its own lockfile)…');
      await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: worktree, maxBuffer: 64 * 1024 * 1024 });
    } else {
      linkNodeModules(worktree);
      if (sameLock) console.log("node_modules: this checkout's, linked (the lockfiles are the same)");
      else {
        const before = lockedPackages(readFileSync(join(worktree, 'package-lock.json'), 'utf8'));
        const now = lockedPackages(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
        const differ = [...new Set([...before.keys(), ...now.keys()])].filter((p) => before.get(p) !== now.get(p));
        console.log(
          `node_modules: this checkout's, linked; the lockfiles differ in ${differ.length} entries (${differ.slice(0, 5).join(', ')}${differ.length > 5 ? ', …' : ''}): --npm-ci installs the earlier ones`,
        );
      }
    }

    // The demo database as the earlier version makes it, and a copy with its keys.
    const demoDir = join(tmp, 'demo');
    const copyDir = join(tmp, 'copy');
    mkdirSync(copyDir);
    const seed = await run(process.execPath, [join(worktree, 'apps/server/src/cli/rewards.ts'), 'seed-demo'], {
      cwd: worktree,
      env: { ...process.env, DATABASE_URL: `file:${join(demoDir, 'rewards.db')}`, DATA_DIR: demoDir },
    });
    check('the earlier version makes the demo database', true, seed.stdout.trim());
    for (const file of readdirSync(demoDir).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm') && f !== 'outbox'))
      copyFileSync(join(demoDir, file), join(copyDir, file));
    const copyUrl = `file:${join(copyDir, 'rewards.db')}`;
    const rewards = (...args: string[]) =>
      run(process.execPath, [join(ROOT, 'apps/server/src/cli/rewards.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: copyUrl, DATA_DIR: copyDir },
      });

    const earlier = await startServer(worktree, copyUrl, copyDir);
    servers.push(earlier);
    check('the earlier server starts on the copy', earlier.child.exitCode === null, earlier.stderr().trim().split('\n')[0] ?? '');
    const before = await participantReads(earlier.base);
    check(
      'the earlier server serves the participant reads',
      before.login === 200 && before.user === 200 && before.statement === 200,
      described(before),
    );

    const status = await rewards('migrate', '--status');
    console.log(status.stdout.trim().replace(/^/gm, '    '));
    const migrated = await rewards('migrate', '--json');
    const applied = (JSON.parse(migrated.stdout) as { applied: string[] }).applied;
    check("today's code migrates the copy under the running earlier server", true, applied.length ? applied.join(', ') : 'nothing pending');

    const oldSession = await participantReads(earlier.base, before.sessionId);
    check(
      'the earlier server still serves a session of before the migration',
      oldSession.user === 200 &&
        oldSession.statement === 200 &&
        oldSession.balance === before.balance &&
        oldSession.entries === before.entries,
      described(oldSession),
    );
    const after = await participantReads(earlier.base);
    check(
      'the earlier server still signs in and serves after the migration',
      after.login === 200 && after.user === 200 && after.statement === 200 && after.balance === before.balance,
      described(after),
    );

    const today = await startServer(ROOT, copyUrl, copyDir);
    servers.push(today);
    const side = await participantReads(today.base);
    check("today's server serves the same, side by side", side.login === 200 && side.balance === before.balance, described(side));
    const crossed = await participantReads(earlier.base, side.sessionId);
    check(
      "the earlier server reads what today's wrote (a session it signed in)",
      crossed.user === 200 && crossed.statement === 200,
      described(crossed),
    );

    await earlier.stop();
    if (applied.length > 0) {
      const again = await startServer(worktree, copyUrl, copyDir);
      servers.push(again);
      const refused = again.child.exitCode !== null && again.child.exitCode !== 0;
      check(
        'a restart of the earlier server on the migrated database is refused (the code is older than the database)',
        refused,
        (again.stderr().trim().split('\n')[0] ?? '').slice(0, 300),
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    if (values.keep) console.log(`kept: ${tmp}`);
    else {
      await git('worktree', 'remove', '--force', worktree).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
      await git('worktree', 'prune');
    }
  }
  const failed = checks.filter((c) => !c.ok);
  console.log(failed.length === 0 ? `\nAll ${checks.length} checks passed.` : `\n${failed.length} of ${checks.length} checks failed.`);
  if (failed.length > 0) process.exitCode = 1;
}

await main();
