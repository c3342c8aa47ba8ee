/**
 * The real portal as the bench runs it: the built server (apps/server/dist/main.js, as `npm
 * start` runs it; built first when its sources changed) in its own process on a free loopback
 * port, so that the bench's own work (autocannon, the browser) is not counted in the server's
 * memory and its pid is known for /proc.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../apps/server/src/process-settings.ts';
import { ensureServerBuild, SERVER_MAIN_JS } from '../build-server.ts';
import { freePort } from '../lib/ports.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'apps', 'server', 'src', 'cli', 'rewards.ts');
export const WEB_DIST = join(ROOT, 'apps', 'web', 'dist');

export interface Portal {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL: no draining, no closing of the database, as a crash would leave it. */
  crash(): Promise<void>;
}

/** Polls `url` until it answers 200; throws after `timeoutMs` or when `alive()` turns false. */
export async function waitFor200(url: string, timeoutMs: number, alive: () => boolean = () => true, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`the process behind ${url} exited`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Starts the portal over `databaseUrl` (already migrated and seeded by the caller); `extraFlags` (a profile's) after the usual. */
export async function startPortal(
  databaseUrl: string,
  logFile: string,
  env: Record<string, string> = {},
  extraFlags: readonly string[] = [],
): Promise<Portal> {
  await ensureServerBuild();
  const port = await freePort();
  const log = createWriteStream(logFile, { flags: 'a' });
  // Started as `npm start` starts it (flags and environment of process-settings.ts).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...extraFlags, SERVER_MAIN_JS], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      WEB_DIST,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${baseUrl}/healthz`, 60_000, alive, 100);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
  }
  const crash = async () => {
    if (alive()) {
      child.kill('SIGKILL');
      await exited;
    }
    log.end();
  };
  return { baseUrl, pid: child.pid ?? 0, stop, crash };
}
