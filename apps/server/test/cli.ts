import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../src/cli/rewards.ts';
import type { TestDatabase } from './databases.ts';

/** The real command, as an operator runs it: `node apps/server/src/cli/rewards.ts …`. */
export const REWARDS_CLI = join(import.meta.dirname, '..', 'src', 'cli', 'rewards.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
}

/** DATABASE_URL of a test database, for a CLI process to open. */
export function databaseUrlOf(database: TestDatabase): string {
  return database.config.dialect === 'sqlite' ? `file:${database.config.path}` : database.config.url;
}

/**
 * Runs `rewards <args>` against a database: the command's own `main(argv)` (the function the
 * `rewards` entry point calls) in this process, with the environment and working directory a
 * process of its own would have, its stdout and stderr captured. Never throws on a non-zero exit.
 *
 * In this process because a process per run cost ~2 s of CPU in module loading alone, and the
 * server suite ran about 280 of them (docs/decisions/060). The entry point itself (exit code,
 * streams, a process of its own beside the portal's) is tested with spawnRewards.
 */
export function runRewards(database: TestDatabase | string, args: string[], options: CliOptions = {}): Promise<CliRun> {
  // One run at a time: a run borrows process-wide things (env, cwd, stdout, stderr).
  const run = queue.then(() => runInProcess(database, args, options));
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}
let queue: Promise<void> = Promise.resolve();

async function runInProcess(database: TestDatabase | string, args: string[], options: CliOptions): Promise<CliRun> {
  const env: Record<string, string> = {
    DATABASE_URL: typeof database === 'string' ? database : databaseUrlOf(database),
    LOG_LEVEL: 'silent',
    ...options.env,
  };
  const savedEnv = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const savedCwd = process.cwd();
  const stdout = capture(process.stdout);
  const stderr = capture(process.stderr);
  Object.assign(process.env, env);
  try {
    if (options.cwd) process.chdir(options.cwd);
    const code = await main(args);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    stdout.restore();
    stderr.restore();
    process.chdir(savedCwd);
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Collects what is written to a stream (a string or bytes, as `write` takes them) until restored. */
function capture(stream: NodeJS.WriteStream): { text(): string; restore(): void } {
  const chunks: Buffer[] = [];
  const original = Object.getOwnPropertyDescriptor(stream, 'write');
  const write = (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    done?: (error?: Error | null) => void,
  ) => {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    const callback = typeof encoding === 'function' ? encoding : done;
    if (callback) process.nextTick(callback);
    return true;
  };
  Object.defineProperty(stream, 'write', { value: write, configurable: true, writable: true });
  return {
    text: () => Buffer.concat(chunks).toString('utf8'),
    restore: () => {
      if (original) Object.defineProperty(stream, 'write', original);
      else delete (stream as Partial<NodeJS.WriteStream>).write; // back to the prototype's
    },
  };
}

/** For a test that spawns the command: a process start is ~0.4 s idle, tens of seconds on a busy machine. */
export const SPAWN_TIMEOUT = 90_000;

/**
 * Runs `rewards <args>` in a process of its own, as an operator runs it: for what only the real
 * entry point shows (the exit code a shell sees, its streams) and for stories about a process
 * other than the portal's.
 */
export function spawnRewards(database: TestDatabase | string, args: string[], options: CliOptions = {}): Promise<CliRun> {
  const databaseUrl = typeof database === 'string' ? database : databaseUrlOf(database);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REWARDS_CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** stdout of a run that must succeed. */
export async function rewardsOutput(database: TestDatabase | string, args: string[], options?: CliOptions): Promise<string> {
  const run = await runRewards(database, args, options);
  if (run.code !== 0) throw new Error(`rewards ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** `--json` output of a run that must succeed. */
export async function rewardsJson<T>(database: TestDatabase | string, args: string[], options?: CliOptions): Promise<T> {
  return JSON.parse(await rewardsOutput(database, [...args, '--json'], options)) as T;
}
