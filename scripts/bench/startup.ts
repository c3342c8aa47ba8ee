/**
 * Start-up: seconds from `npm start` (the real command) to /healthz answering 200, on an
 * already built tree. First on a fresh database file (migrations and the demo seed included),
 * then a restart on the same file with nothing changed: the figure the budget is about.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../lib/ports.ts';
import { rssMb } from './memory.ts';
import { ROOT, waitFor200 } from './portal.ts';

export interface StartupResults {
  freshDatabaseSeconds: number;
  restartSeconds: number;
  rssAfterStartMb: number | undefined;
}

/** Descendants of a process, from /proc/<pid>/task/<pid>/children. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * The node process serving the portal, not npm's nor the shell's: the one running main.js or
 * main.ts, else (a start script that imports the server) the node process holding the most memory.
 */
function serverPid(npmPid: number): number | undefined {
  const read = (pid: number, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return '';
    }
  };
  // By argv[0]: npm rewrites its own to "npm start", and node 24 names its main thread "MainThread".
  const nodes = descendants(npmPid).filter((pid) => /(^|\/)node$/.test(read(pid, 'cmdline').split('\0')[0] ?? ''));
  const main = nodes.filter((pid) =>
    read(pid, 'cmdline')
      .split('\0')
      .some((arg) => /main\.[jt]s$/.test(arg)),
  );
  const byMemory = (list: number[]) => [...list].sort((a, b) => (rssMb(b) ?? 0) - (rssMb(a) ?? 0))[0];
  return main.length > 0 ? byMemory(main) : byMemory(nodes);
}

async function timeStart(databaseUrl: string): Promise<{ seconds: number; rss: number | undefined }> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group, so stopping it stops npm, the shell and node together.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  try {
    await waitFor200(`http://127.0.0.1:${port}/healthz`, 120_000, alive, 25);
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    return { seconds, rss: rssMb(serverPid(child.pid ?? 0)) };
  } finally {
    if (alive()) {
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      const timer = setTimeout(() => alive() && process.kill(-(child.pid ?? 0), 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }
}

export async function runStartup(dir: string, log: (line: string) => void): Promise<StartupResults> {
  const databaseUrl = `file:${join(dir, 'startup.db')}`;
  const fresh = await timeStart(databaseUrl);
  log(`npm start on a fresh database: ${fresh.seconds} s`);
  const restart = await timeStart(databaseUrl);
  log(`npm start again, nothing changed: ${restart.seconds} s, ${restart.rss ?? '?'} MB resident`);
  return { freshDatabaseSeconds: fresh.seconds, restartSeconds: restart.seconds, rssAfterStartMb: restart.rss };
}
