import type { Command } from 'commander';
import { isCalendarDay } from '../../modules/expiry/policy.ts';
import { releasePendingPoints, ReleaseRunInputError, type ReleaseRunResult } from '../../modules/events/release.ts';
import { action, CliError } from '../cli-context.ts';
import { eventsCommand } from './events-import.ts';

interface ReleaseOptions {
  client?: string;
  now?: string;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `rewards events release [--client ID] [--now ISO]`: the release of pending points by hand
 * (docs/decisions/098), the same service the server runs daily before the expiry, under the same
 * lease. Prints per client what it released: lines, points, participants.
 */
export function registerEventsRelease(program: Command): void {
  const release = eventsCommand(program)
    .command('release')
    .description(
      "credit the pending points whose day has come (the client's first day at or after their availableAt); prints what it did. The server does it daily",
    )
    .option('--client <id>', 'one client (default: every client)')
    .option('--now <iso>', 'release as of this time, ISO 8601 with its offset (default now; never later than now)');
  action<ReleaseOptions>(release, async (db, { options }) => {
    let now: Date | undefined;
    if (options.now !== undefined) {
      now = new Date(options.now);
      if (!INSTANT.test(options.now) || !isCalendarDay(options.now.slice(0, 10)) || Number.isNaN(now.getTime()))
        throw new CliError('--now is an ISO 8601 time with its offset, such as 2027-01-15T00:30:00Z');
      if (now.getTime() > Date.now()) throw new CliError('--now is later than now: pending points are released once their day has come');
    }
    const at = now;
    const result = await releasePendingPoints(db, {
      ...(options.client !== undefined ? { clientId: options.client } : {}),
      ...(at !== undefined ? { now: () => at } : {}),
    }).catch((error: unknown) => {
      if (error instanceof ReleaseRunInputError) throw new CliError(error.message);
      throw error;
    });
    return { human: summary(result), json: result };
  });
}

function summary(result: ReleaseRunResult): string {
  if (result.status === 'busy')
    return 'Another process is releasing pending points now; nothing was done here. Try again when it has finished.';
  if (result.clients.length === 0) return 'No client.';
  return result.clients
    .map((c) =>
      c.lines === 0
        ? `${c.clientId} (as of ${c.asOf}): nothing to release.`
        : `${c.clientId} (as of ${c.asOf}): released ${c.points} points of ${c.lines} pending lines to ${c.participants} participants.`,
    )
    .join('\n');
}
