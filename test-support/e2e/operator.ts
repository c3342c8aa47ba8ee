/**
 * The operator command for browser tests and screenshots, apart from server.ts so that what only
 * starts a server (the global setups, the benchmark) does not load the command's modules.
 */
import { runRewards } from '../../apps/server/test/cli.ts';
import { ROOT } from './server.ts';

/**
 * Runs the operator command (`npm run rewards -- …`) against the given database and returns what it
 * printed; throws on a non-zero exit, with what it wrote to stderr. The command's own main() in this
 * process (apps/server/test/cli.ts), one run at a time: a process of its own cost a second or more
 * of module loading per call, and the browser tests made a few dozen (decision 088). `env` adds to
 * the environment the command sees (the console's origin, for enrolment links).
 */
export async function rewardsCli(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const run = await runRewards(databaseUrl, args, { env, cwd: ROOT });
  if (run.code !== 0) throw new Error(`rewards ${args.join(' ')} exited ${run.code}: ${run.stderr.trim()}`);
  return run.stdout;
}
