import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './ports.ts';

const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');
const START_DEADLINE_MS = 30_000;

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** SIGTERM (or the signal given), resolving with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/** The real server (`main.ts`) in its own process on a free loopback port, once it answers /healthz. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, WEB_DIST: '', LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    const done = exited(child);
    child.kill(signal);
    return done;
  };
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}
