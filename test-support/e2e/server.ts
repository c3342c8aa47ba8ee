/**
 * Runs the real portal for browser tests and screenshots: the built web app served by
 * `node apps/server/src/main.ts` on a free loopback port, over a brand-new SQLite file
 * (which the server migrates and seeds with the demo program on start).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/ports.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
const WEB_DIST = join(ROOT, 'apps', 'web', 'dist');
const MAIN = join(ROOT, 'apps', 'server', 'src', 'main.ts');

export interface PortalServer {
  baseUrl: string;
  /** DATABASE_URL of this server, for the operator CLI. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** Builds the web app unless a build exists (`npm test` builds fresh just before). */
export function ensureWebBuild(force = false): void {
  if (!force && existsSync(join(WEB_DIST, 'index.html'))) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

/**
 * `env` adds to or overrides the server's environment (e.g. a short SESSION_IDLE_MINUTES); a
 * function gets the port first (the console's tests set CONSOLE_ORIGIN on it).
 */
export async function startPortalServer(
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
): Promise<PortalServer> {
  const dir = await mkdtemp(join(tmpdir(), 'rewards-e2e-'));
  const databaseUrl = `file:${join(dir, 'rewards.db')}`;
  const logFile = join(dir, 'server.log');
  const log = createWriteStream(logFile);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      WEB_DIST,
      LOG_LEVEL: 'warn',
      // The browser tests run on the demo, which a production start never seeds (decision 072), whatever the shell exports.
      NODE_ENV: 'development',
      ...(typeof env === 'function' ? env(port) : env),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // the server drains and closes the database
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    await rm(dir, { recursive: true, force: true });
  };

  // Ready when /healthz answers 200 (database reachable, migrations and seed done).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      const output = readFileSync(logFile, 'utf8');
      await stop();
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${output.slice(-3000)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      const output = readFileSync(logFile, 'utf8');
      await stop();
      throw new Error(`The server did not answer /healthz within 60 s:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { baseUrl, databaseUrl, stop };
}
