import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TestDatabase } from './databases.ts';

/** The real command, as an operator runs it: `node apps/server/src/cli/rewards.ts …`. */
export const REWARDS_CLI = join(import.meta.dirname, '..', 'src', 'cli', 'rewards.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** DATABASE_URL of a test database, for a CLI process to open. */
export function databaseUrlOf(database: TestDatabase): string {
  return database.config.dialect === 'sqlite' ? `file:${database.config.path}` : database.config.url;
}

/** Runs `rewards <args>` against a database in its own process; never throws on a non-zero exit. */
export function runRewards(
  database: TestDatabase | string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
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

/** `--json` output of a run that must succeed. */
export async function rewardsJson<T>(
  database: TestDatabase | string,
  args: string[],
  options?: { env?: Record<string, string> },
): Promise<T> {
  const run = await runRewards(database, [...args, '--json'], options);
  if (run.code !== 0) throw new Error(`rewards ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
