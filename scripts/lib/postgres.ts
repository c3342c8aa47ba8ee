/**
 * A throwaway PostgreSQL server for tests: its own temp directory, loopback only, a free
 * port, no durability (fsync off) because the data dies with the run.
 * Debian's binaries refuse to run as root, so as root we run them as the `postgres` user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** Admin URL: postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** The postmaster's pid (its backends are its children), for CPU accounting; undefined for TEST_DATABASE_URL. */
  pid?: number;
  stop(): Promise<void>;
}

/** Newest /usr/lib/postgresql/<version>/bin that has initdb, or undefined. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };

  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin. ' +
        'Install them (Debian: apt-get install -y postgresql) or set TEST_DATABASE_URL.',
    );
  }
  const asRoot = process.getuid?.() === 0;
  // As root, wrap every command with runuser so it runs as the postgres system user.
  // By full path: a non-login root shell (CI) may have no sbin directory on PATH.
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';
  const cmd = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? [runuser, ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];

  // As root, under /tmp: a TMPDIR inside /root could not be entered by the postgres user.
  const dir = await mkdtemp(join(asRoot ? '/tmp' : tmpdir(), 'rewards-pg-'));
  if (asRoot) await chown(dir, ...postgresUser());
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');

  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    // --no-sync and locale C: fast, and no dependency on the machine's locales.
    await run(...cmd('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']));
  } catch (error) {
    cleanup();
    throw error;
  }

  // The free port may be taken between asking and binding: try a few.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const options = [
      `-p ${port}`,
      `-c listen_addresses=127.0.0.1`,
      `-c unix_socket_directories=${dir}`, // not /var/run/postgresql: may not exist, may be shared
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      '-c max_connections=200', // a database per test file, each with a pool
    ].join(' ');
    try {
      // -w waits until the server accepts connections.
      await run(...cmd('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]));
      break;
    } catch (error) {
      if (attempt >= 3) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
        cleanup();
        throw new Error(`PostgreSQL did not start: ${String(error)}\n${tail}`);
      }
    }
  }

  // Safety net: if the process exits without calling stop(), do not leave a server behind.
  const stopNow = () => {
    try {
      execFileSync(...cmd('pg_ctl', ['stop', '-D', data, '-m', 'immediate']), { stdio: 'ignore' });
    } catch {
      /* already stopped */
    }
    cleanup();
  };
  process.once('exit', stopNow);

  // postmaster.pid's first line is the postmaster's pid.
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    ...(pid > 0 ? { pid } : {}),
    async stop() {
      process.removeListener('exit', stopNow);
      try {
        // immediate: no checkpoint, the data is thrown away anyway.
        await run(...cmd('pg_ctl', ['stop', '-w', '-D', data, '-m', 'immediate']));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** uid and gid of the postgres system user that Debian's package creates. */
function postgresUser(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error("No postgres system user: install Debian's postgresql package (apt-get install -y postgresql).");
  }
  return [Number(uid), Number(gid)];
}
