import type { Command } from 'commander';
import { expirePoints, ExpiryRunInputError, type ExpiryRunResult } from '../../modules/expiry/run.ts';
import { action, CliError } from '../cli-context.ts';

interface ExpireOptions {
  client?: string;
  asOf?: string;
  dryRun?: boolean;
}

/**
 * `rewards points expire [--client ID] [--as-of YYYY-MM-DD] [--dry-run]`: the expiry run by hand
 * (docs/decisions/057), the same service the server runs daily, under the same lease. Prints per
 * client what it did (or, dry, would do): participants, points, lots.
 */
export function registerPointsExpire(points: Command): void {
  const expire = points
    .command('expire')
    .description('expire the points whose day has ended (and, under an inactivity policy, inactive balances); prints what it did')
    .option('--client <id>', 'one client (default: every client)')
    .option('--as-of <date>', "the day to expire as of, YYYY-MM-DD in the client's time zone (default today there; never after it)")
    .option('--dry-run', 'show what would expire, changing nothing');
  action<ExpireOptions>(expire, async (db, { options }) => {
    const result = await expirePoints(db, {
      ...(options.client !== undefined ? { clientId: options.client } : {}),
      ...(options.asOf !== undefined ? { asOf: options.asOf } : {}),
      dryRun: options.dryRun === true,
    }).catch((error: unknown) => {
      if (error instanceof ExpiryRunInputError) throw new CliError(error.message);
      throw error;
    });
    return { human: summary(result), json: result };
  });
}

function summary(result: ExpiryRunResult): string {
  if (result.status === 'busy') return 'Another process is running the expiry now; nothing was done here. Try again when it has finished.';
  const verb = result.status === 'dryRun' ? 'would expire' : 'expired';
  const lines = result.clients.map((c) =>
    c.participants === 0
      ? `${c.clientId} (as of ${c.asOf}, policy ${c.policy}): nothing ${result.status === 'dryRun' ? 'would expire' : 'to expire'}.`
      : `${c.clientId} (as of ${c.asOf}, policy ${c.policy}): ${verb} ${c.points} points of ${c.participants} participants (${c.lots} lots).`,
  );
  if (result.status === 'dryRun') lines.push('Dry run: nothing was changed.');
  return lines.join('\n');
}
