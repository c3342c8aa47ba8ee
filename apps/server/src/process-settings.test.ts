import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
