import { execFile } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BackupRefused } from './errors.ts';

const run = promisify(execFile);

/**
 * PostgreSQL's client tools: the newest under /usr/lib/postgresql/<version>/bin (Debian's
 * packages; a newer pg_dump reads older servers, never the reverse), else the one on PATH.
 */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const newest = readdirSync(root)
      .filter((version) => existsSync(join(root, version, 'bin', name)))
      .sort((a, b) => Number(b) - Number(a))[0];
    if (newest !== undefined) return join(root, newest, 'bin', name);
  }
  return name;
}

/**
 * The connection for libpq's tools: the URL without its password, which goes in PGPASSWORD
 * instead (an argument is readable by every user of the machine in the process list).
 */
function connection(url: string): { target: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { target: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

async function tool(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const path = pgTool(name);
  try {
    const { stdout } = await run(path, args, { env, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT')
      throw new BackupRefused(`${name} was not found (Debian: apt-get install postgresql-client); it is needed on PostgreSQL`);
    const said = (failure.stderr ?? '').trim().split('\n').slice(0, 3).join(' | ');
    throw new Error(`${name} failed: ${said || failure.message}`);
  }
}

/** pg_dump in its custom format (compressed, read by pg_restore, one consistent snapshot of the database). */
export async function pgDump(url: string, file: string): Promise<void> {
  const { target, env } = connection(url);
  // Owner-only from its first byte, as the SQLite copy: pg_dump would make it under the umask.
  closeSync(openSync(file, 'wx', 0o600));
  await tool('pg_dump', ['--format=custom', `--file=${file}`, '--no-password', target], env);
  chmodSync(file, 0o600);
}

/** The dump's table of contents (`pg_restore --list`): proof that pg_restore can read it. Returns how many entries it has. */
export async function pgDumpEntries(file: string): Promise<number> {
  const list = await tool('pg_restore', ['--list', file]);
  const entries = list.split('\n').filter((line) => /^\d+;/.test(line)).length;
  if (entries === 0) throw new BackupRefused(`pg_restore --list found nothing in ${file}`);
  return entries;
}

/** The names in the dump's kysely_migration, read from its data (COPY text format: one row a line, tab-separated). */
export async function migrationsInDump(file: string): Promise<string[]> {
  const text = await tool('pg_restore', ['--data-only', '--table=kysely_migration', '--file=-', file]);
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('COPY ') && line.includes('kysely_migration'));
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '\\.') break;
    names.push(line.split('\t')[0]!);
  }
  return names.sort();
}

/**
 * The dump into an empty database, in one transaction (all or nothing), owned by the connecting
 * user whoever owned the original.
 */
export async function pgRestore(url: string, file: string): Promise<void> {
  const { target, env } = connection(url);
  await tool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', '--no-password', `--dbname=${target}`, file],
    env,
  );
}
