import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createEmptyPostgresDatabase, type Dialect } from './databases.ts';
import { freePort } from './ports.ts';

const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'rewards.ts');
// A start from source compiles the whole server; on 2 cores shared with the other test lanes that took up to 48 s.
const START_DEADLINE_MS = 90_000;

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** SIGTERM (or the signal given), resolving with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /**
   * The first line of the server's log (stdout, from its start) for which `match` holds; rejects
   * after `timeoutMs` or when the process ends first. For tests that wait on what the server did.
   */
  logLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Every line of the server's log so far, for tests that look at what it never wrote. */
  log(): readonly string[];
}

export const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/**
 * The real server (`main.ts`) in its own process on a loopback port, once it answers /healthz: a
 * free one, or `env.PORT` (a process restarted where a proxy expects it).
 */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', DATABASE_URL: databaseUrl, WEB_DIST: '', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept for the error of a start that failed (a refusal, a port taken meanwhile).
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString()}`.slice(-4000)));
  // Always read, so that a chatty LOG_LEVEL never fills the pipe and stalls the server.
  const lines: string[] = [];
  let ended = false;
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  createInterface({ input: child.stdout! })
    .on('line', (line) => {
      lines.push(line);
      wakeAll();
    })
    .on('close', () => {
      ended = true;
      wakeAll();
    });
  const logLine = (match: (line: string) => boolean, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      let seen = 0;
      const check = () => {
        for (; seen < lines.length; seen += 1) {
          const line = lines[seen]!;
          if (match(line)) return finish(() => resolve(line));
        }
        if (ended) finish(() => reject(new Error(`the server's log ended without the line:\n${lines.join('\n')}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no such log line within ${timeoutMs} ms:\n${lines.join('\n')}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });
  const base = `http://127.0.0.1:${port}`;
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    const done = exited(child);
    child.kill(signal);
    return done;
  };
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it answered:\n${stderr}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, stop, logLine, log: () => lines };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

/**
 * A database several servers share, seeded with the demo: a SQLite file in a fresh directory
 * (the first server to start seeds it) or a PostgreSQL database seeded by the operator command.
 */
export async function sharedDatabase(dialect: Dialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'rewards-shared-'));
    return { url: `file:${join(dir, 'shared.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database = await createEmptyPostgresDatabase();
  const seed = spawn(process.execPath, [CLI, 'seed-demo'], { env: { ...process.env, DATABASE_URL: database.url }, stdio: 'ignore' });
  if ((await exited(seed)) !== 0) throw new Error('seed-demo failed');
  return database;
}

/**
 * `count` servers on one database, started one after the other: the first start creates,
 * migrates and (for a new SQLite file) seeds; the others find it ready.
 */
export async function startServers(databaseUrl: string, count = 2): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i += 1) servers.push(await startServer(databaseUrl));
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
  return servers;
}
