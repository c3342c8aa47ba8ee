import type { Command } from 'commander';
import type { Db } from '../../db/database.ts';
import { recordAudit } from '../../modules/audit/store.ts';
import { appendLedgerEntry, InsufficientBalanceError, type LedgerMovement } from '../../modules/ledger/store.ts';
import { adjustPoints, MAX_ADJUSTMENT } from '../../modules/ledger/adjustments.ts';
import { findParticipantByUsername, usernameKey } from '../../modules/participants/store.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';
import { registerPointsImport } from './points-import.ts';
import { registerPointsExpire } from './points-expire.ts';
import { occurredAtOf } from './points-lines.ts';

/** The largest single movement an operator may post: a typo guard, far above any real award. */
export const MAX_POINTS = 100_000_000;
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
 * internal note (--note, else the reason), which staff see. `adjust` is the console's service
 * (modules/ledger/adjustments.ts, docs/decisions/048): the command parses, calls and prints.
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
    return move(
      db,
      options,
      operator,
      'points.award',
      {
        amount,
        kind: 'award',
        description,
        descriptionKey: 'ledger.operator.award',
        descriptionParams: { description },
      },
      reason,
    );
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
}

type Entry = Pick<LedgerMovement, 'amount' | 'kind' | 'description' | 'descriptionKey' | 'descriptionParams'>;

async function move(db: Db, options: MoveOptions, operator: string, auditAction: string, entry: Entry, reason: string) {
  const client = await requireClient(db, options.client);
  const now = new Date();
  const occurredAt = options.date === undefined ? now.toISOString() : occurredAtOf(options.date);
  if (occurredAt === undefined) throw new CliError('--date must be a date such as 2026-11-01 or 2026-11-01T09:30:00Z');
  const participant = await db
    .selectFrom('participants')
    .select(['id', 'username'])
    .where('client_id', '=', client.id)
    .where('username_key', '=', usernameKey(options.username ?? ''))
    .executeTakeFirst();
  if (!participant) throw new CliError(`No participant "${options.username}" in client ${client.id}`);
  const done = await db
    .transaction()
    .execute(async (trx) => {
      const id = await appendLedgerEntry(trx, { clientId: client.id, participantId: participant.id, occurredAt, ...entry }, now, {
        requireCovered: entry.amount < 0,
      });
      const row = await trx
        .selectFrom('participants')
        .select('balance')
        .where('client_id', '=', client.id)
        .where('id', '=', participant.id)
        .executeTakeFirstOrThrow();
      const balance = row.balance ?? 0;
      await recordAudit(
        trx,
        {
          clientId: client.id,
          actor: operator,
          actorKind: 'operator',
          action: auditAction,
          subject: participant.username,
          details: { points: entry.amount, reason, balance },
          origin: operatorOrigin,
        },
        now,
      );
      return { id, balance };
    })
    .catch((error: unknown) => {
      if (error instanceof InsufficientBalanceError)
        throw new CliError(`The balance of ${participant.username} does not cover ${entry.amount}; nothing was posted`);
      throw error;
    });
  const verb = entry.amount > 0 ? `Credited ${entry.amount}` : `Debited ${-entry.amount}`;
  return {
    human: `${verb} points ${entry.amount > 0 ? 'to' : 'from'} ${participant.username} (${client.id}); balance now ${done.balance}.`,
    json: { client: client.id, username: participant.username, points: entry.amount, occurredAt, balance: done.balance, entryId: done.id },
  };
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
