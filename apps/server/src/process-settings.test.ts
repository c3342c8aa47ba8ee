import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { OWASP_MINIMUM } from './modules/auth/password.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './process-settings.ts';
import { freePort } from '../test/ports.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

async function healthy(base: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer /healthz:\n${output()}`);
}

describe('the server process as npm start runs it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is npm start running scripts/start.ts', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node scripts/start.ts');
  });

  it(
    'builds the server if needed, then becomes it: the compiled bundle with the process settings, in the same process',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      // No web app here (WEB_DIST empty): the web build is another test's business.
      const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: `file:${join(dir, 'start.db')}`,
          WEB_DIST: '',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const done = exited(child);
      try {
        const base = `http://127.0.0.1:${port}`;
        await healthy(base, child, () => output);

        const [node, ...args] = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        expect(node).toBe(process.execPath);
        expect(args).toEqual([...SERVER_NODE_FLAGS, join(ROOT, 'apps', 'server', 'dist', 'main.js')]);
        const environment = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
        for (const [name, value] of Object.entries(SERVER_ENV)) expect(environment).toContain(`${name}=${value}`);

        // Files read beside the sources are still found from the bundle: the translations.
        const bundle = await fetch(`${base}/api/v1.0/viewConfig/bundle/fr-FR`, { headers: { 'client-id': 'http://localhost:3000' } });
        expect(bundle.status).toBe(200);
        const { bundleList } = (await bundle.json()) as { bundleList: Record<string, { properties: Record<string, string> }> };
        expect(Object.values(bundleList).some((b) => b.properties['login.submit'] === 'Se connecter')).toBe(true);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await done).toBe(0);
    },
  );
});

describe('V8 flags', () => {
  it('are never changed at run time by production code: only on the command line (decision 058)', () => {
    const src = join(ROOT, 'apps', 'server', 'src');
    const production = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(production.length).toBeGreaterThan(50);
    const setting = production.filter((f) => readFileSync(join(src, f), 'utf8').includes('setFlagsFromString'));
    expect(setting).toEqual([]);
  });
});

/** Runs `script` (an ES module) in a node process with the server's flags and environment; its stdout parsed as JSON. */
async function inServerProcess<T>(script: string): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [...SERVER_NODE_FLAGS, '--input-type=module', '-e', script], {
    cwd: join(ROOT, 'apps', 'server'),
    env: { ...process.env, ...SERVER_ENV },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as T;
}

describe("argon2id's memory (decision 058)", () => {
  it('is given back when the runs end, with no allocator setting: the addon allocates through its own mimalloc, not glibc', async () => {
    // Kilobytes from /proc/self/status: resident anonymous memory, and the peak resident.
    const { startAnon, endAnon, startPeak, endPeak } = await inServerProcess<{
      startAnon: number;
      endAnon: number;
      startPeak: number;
      endPeak: number;
    }>(`
      import { readFileSync } from 'node:fs';
      import { hash, verify } from '@node-rs/argon2';
      const kb = (name) => parseInt(readFileSync('/proc/self/status', 'utf8').split('\\n').find((l) => l.startsWith(name + ':')).slice(name.length + 1));
      const options = { memoryCost: ${OWASP_MINIMUM.memoryCost}, timeCost: ${OWASP_MINIMUM.timeCost}, parallelism: 1 };
      const startAnon = kb('RssAnon');
      const startPeak = kb('VmHWM');
      const h = await hash('a password', options);
      // Two at a time, as the server runs them on two cores, several rounds.
      for (let round = 0; round < 6; round++) await Promise.all([verify(h, 'a password'), verify(h, 'another')]);
      console.log(JSON.stringify({ startAnon, endAnon: kb('RssAnon'), startPeak, endPeak: kb('VmHWM') }));
    `);
    const block = OWASP_MINIMUM.memoryCost;
    // The runs were resident while they ran (two at once: the peak rose by more than one block)…
    expect(endPeak - startPeak).toBeGreaterThan(1.5 * block);
    // …and none of their blocks stayed resident after.
    expect(endAnon - startAnon).toBeLessThan(block / 2);
  });

  it("is read by the bench once the runs a load left in the server's thread pool have ended (scripts/bench/memory.ts)", async () => {
    // Runs longer than OWASP's (more passes), so a reading that did not wait would come before they end.
    const { pool, settled, started, instantMb, mb } = await inServerProcess<{
      pool: number;
      settled: number;
      started: number;
      instantMb: number;
      mb: number;
    }>(`
      import { hash } from '@node-rs/argon2';
      import { busyPoolThreads, rssAfterLoad } from ${JSON.stringify(join(ROOT, 'scripts', 'bench', 'memory.ts'))};
      // The pool's threads are up (as in a server, which signs in before any load).
      await hash('warm-up', { memoryCost: 8, timeCost: 1, parallelism: 1 });
      let settled = 0;
      const runs = 4;
      for (let i = 0; i < runs; i++) void hash('a password ' + i, { memoryCost: ${OWASP_MINIMUM.memoryCost}, timeCost: 8, parallelism: 1 }).then(() => settled++);
      // A deadline far beyond the runs: what is checked is that the reading waits for them.
      const { mb, instantMb } = await rssAfterLoad(process.pid, 50_000);
      console.log(JSON.stringify({ pool: busyPoolThreads(process.pid), settled, started: runs, instantMb, mb }));
    `);
    expect(settled).toBe(started);
    expect(pool).toBe(0);
    expect(mb).toBeGreaterThan(0);
    expect(instantMb).toBeGreaterThan(0);
  });
});
