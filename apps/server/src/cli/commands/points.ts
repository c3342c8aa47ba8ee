import type { Command } from 'commander';
import { adjustPoints, MAX_ADJUSTMENT } from '../../modules/ledger/adjustments.ts';
import { awardPoints, MAX_AWARD } from '../../modules/ledger/awards.ts';
import { findParticipantByUsername } from '../../modules/participants/service.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorActor, operatorOrigin } from './audit.ts';
import { registerPointsImport } from './points-import.ts';
import { registerPointsExpire } from './points-expire.ts';
import { registerPointsForecast } from './points-forecast.ts';
import { occurredAtOf } from '../../modules/imports/points-lines.ts';

/** The largest single movement an operator may post: a typo guard, far above any real award. */
export const MAX_POINTS = MAX_AWARD;
const MAX_TEXT = 200;

interface MoveOptions {
  client?: string;
  username?: string;
  points?: string;
  reason?: string;
  description?: string;
  date?: string;
}

/**
 * `points award` and `points adjust`: one participant, one ledger entry, one audit entry, in one
 * transaction. What the participant reads (docs/decisions/022): an award shows its reason (or
 * --description), since "Top seller, March" is meant for them; an adjustment's reason is often
 * internal ("ticket 4711, double posting"), so the participant reads "Balance adjustment" (and
 * --description after it if given), and the reason stays in the audit log and the entry's
 * internal note (--note, else the reason), which staff see. `award` is modules/ledger/awards.ts,
 * `adjust` the console's service (modules/ledger/adjustments.ts, docs/decisions/048): the
 * commands parse, call and print.
 */
export function registerPoints(program: Command): void {
  const points = program.command('points').description('post points to participants: award, adjust, import a file');

  const award = points
    .command('award')
    .description('credit points to one participant, with a reason the participant reads')
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--username <name>', 'the participant')
    .requiredOption('--points <n>', `points to credit (1 to ${MAX_POINTS})`)
    .requiredOption('--reason <text>', 'why; shown to the participant as the entry’s description')
    .option('--description <text>', 'what the participant reads instead of the reason')
    .option('--date <date>', 'when it happened (YYYY-MM-DD or ISO 8601; default now)');
  action<MoveOptions>(award, async (db, { options, operator }) => {
    const amount = wholeNumber('--points', options.points, 1, MAX_POINTS);
    const reason = text('--reason', options.reason, true)!;
    const description = text('--description', options.description, false) ?? reason;
    const client = await requireClient(db, options.client);
    const occurredAt = options.date === undefined ? undefined : occurredAtOf(options.date);
    if (options.date !== undefined && occurredAt === undefined)
      throw new CliError('--date must be a date such as 2026-11-01 or 2026-11-01T09:30:00Z');
    const participant = await findParticipantByUsername(db, client.id, options.username ?? '');
    if (!participant) throw new CliError(`No participant "${options.username}" in client ${client.id}`);
    const done = await awardPoints(db, operatorActor(operator), participant, {
      points: amount,
      description,
      reason,
      ...(occurredAt ? { occurredAt } : {}),
    });
    return {
      human: `Credited ${amount} points to ${participant.username} (${client.id}); balance now ${done.balance}.`,
      json: {
        client: client.id,
        username: participant.username,
        points: amount,
        occurredAt: done.occurredAt,
        balance: done.balance,
        entryId: done.entryId,
      },
    };
  });

  const adjust = points
    .command('adjust')
    .description('correct one participant’s balance up or down, with a reason; a debit the balance does not cover is refused')
    .requiredOption('--client <id>', 'the client')
    .requiredOption('--username <name>', 'the participant')
    .requiredOption('--points <n>', 'points to add, or to take with a minus sign (e.g. --points=-50)')
    .requiredOption('--reason <text>', 'why (audit log; the participant reads "Balance adjustment")')
    .option('--description <text>', 'a note the participant reads after "Balance adjustment: "')
    .option('--note <text>', 'the internal note staff see on the entry, never the participant (default: the reason)')
    .option('--date <date>', 'when it happened (YYYY-MM-DD or ISO 8601; default now)');
  action<MoveOptions & { note?: string }>(adjust, async (db, { options, operator }) => {
    const amount = wholeNumber('--points', options.points, -MAX_ADJUSTMENT, MAX_ADJUSTMENT);
    if (amount === 0) throw new CliError('--points must not be 0');
    const reason = text('--reason', options.reason, true)!;
    const participantText = text('--description', options.description, false);
    const note = text('--note', options.note, false) ?? reason;
    const client = await requireClient(db, options.client);
    const occurredAt = options.date === undefined ? undefined : occurredAtOf(options.date);
    if (options.date !== undefined && occurredAt === undefined)
      throw new CliError('--date must be a date such as 2026-11-01 or 2026-11-01T09:30:00Z');
    const participant = await findParticipantByUsername(db, client.id, options.username ?? '');
    if (!participant) throw new CliError(`No participant "${options.username}" in client ${client.id}`);
    const done = await adjustPoints(db, { name: operator, kind: 'operator', origin: operatorOrigin }, participant, {
      points: amount,
      reason,
      internalNote: note,
      ...(participantText ? { participantText } : {}),
      ...(occurredAt ? { occurredAt } : {}),
    });
    const verb = amount > 0 ? `Credited ${amount}` : `Debited ${-amount}`;
    return {
      human: `${verb} points ${amount > 0 ? 'to' : 'from'} ${participant.username} (${client.id}); balance now ${done.balance}.`,
      json: {
        client: client.id,
        username: participant.username,
        points: amount,
        occurredAt: done.occurredAt,
        balance: done.balance,
        entryId: done.entryId,
      },
    };
  });

  registerPointsImport(points);
  registerPointsExpire(points);
  registerPointsForecast(points);
}

function text(flag: string, value: string | undefined, required: boolean): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) {
    if (required) throw new CliError(`${flag} must not be empty`);
    return undefined;
  }
  if (trimmed.length > MAX_TEXT) throw new CliError(`${flag} must be at most ${MAX_TEXT} characters`);
  return trimmed;
}
