import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import { addLot, spendLots } from '../expiry/lots.ts';
import { moveBalance, moveBalanceAndPending } from '../participants/service.ts';

// Every points movement runs this: compiled to SQL once (docs/decisions/014).
const insertEntry = compiledOnce(
  (
    db: Kysely<Database>,
    id: string,
    clientId: string,
    participantId: string,
    occurredAt: string,
    description: string,
    descriptionKey: string | null,
    descriptionParams: string | null,
    amount: number,
    kind: string,
    reference: string | null,
    createdAt: string,
    internalNote: string | null,
    postedBy: string | null,
    requestId: string | null,
  ) =>
    db.insertInto('ledger_entries').values({
      id,
      client_id: clientId,
      participant_id: participantId,
      occurred_at: occurredAt,
      description,
      description_key: descriptionKey,
      description_params: descriptionParams,
      amount,
      kind,
      reference,
      created_at: createdAt,
      internal_note: internalNote,
      posted_by: postedBy,
      request_id: requestId,
    }),
);

/** expiry: points that expired, posted by the expiry run (docs/decisions/057); return: a return event taking back what its original event earned (decision 098). */
export type LedgerKind = 'award' | 'redemption' | 'adjustment' | 'ots' | 'expiry' | 'return';

export interface LedgerMovement {
  clientId: string;
  participantId: string;
  occurredAt: string;
  /** The operator's own words; shown when there is no key, and the fallback of a missing key. */
  description: string;
  /** Translation key of the description, with its placeholder values. */
  descriptionKey?: string;
  /** A value may be kept in several languages ({"en-US": …, "ar": …}): the history shows the reader's (activity/describe.ts). */
  descriptionParams?: Readonly<Record<string, string | number | Readonly<Record<string, string>>>>;
  amount: number;
  kind: LedgerKind;
  /** Idempotency key, unique per client (a catalog order id, an imported line's id). */
  reference?: string;
  /** Why staff or an operator posted it: for them only, never the participant (migration 022). */
  internalNote?: string;
  /** Who posted it: a staff e-mail, an operator's name. */
  postedBy?: string;
  /** The console form's key, unique per client: the same key posts once. */
  requestId?: string;
}

/** A debit that the balance does not cover; nothing was written. */
export class InsufficientBalanceError extends Error {
  override name = 'InsufficientBalanceError';
}

/**
 * Appends one ledger entry and moves the cached balance by the same amount. Takes a
 * transaction so that the entry, the balance and the cause commit together or not at all.
 * With `requireCovered`, a debit that would take the balance below zero throws
 * InsufficientBalanceError instead; the check and the move are one UPDATE, so concurrent
 * debits cannot both pass it.
 *
 * A credit also makes a lot, and a debit takes from the open lots, oldest expiry first
 * (docs/decisions/057), after the balance UPDATE: its row lock (PostgreSQL) or SQLite's one
 * writer keeps every other movement of the participant out until the commit. A debit the open
 * lots do not cover throws InsufficientBalanceError, with or without `requireCovered`: the
 * ledger never goes below zero, since the lots' sum is the balance.
 */
export async function appendLedgerEntry(
  trx: Transaction<Database>,
  movement: LedgerMovement,
  now = new Date(),
  options: { requireCovered?: boolean } = {},
): Promise<string> {
  return (await appendLedgerEntryWithBalance(trx, movement, now, options)).entryId;
}

/** appendLedgerEntry, also answering the participant's balance after it. */
export async function appendLedgerEntryWithBalance(
  trx: Transaction<Database>,
  movement: LedgerMovement,
  now = new Date(),
  options: {
    requireCovered?: boolean;
    /** Points the same posting holds (issue 32 §3): the participant's pending total moves in the balance's UPDATE. */
    pendingPoints?: number;
  } = {},
): Promise<{ entryId: string; balance: number; pendingPoints?: number }> {
  if (!Number.isSafeInteger(movement.amount)) throw new Error('Points are whole numbers');
  // The participants' balance moves first (returning the new one: decision 093, no read-back).
  let balance: number | undefined;
  let pendingPoints: number | undefined;
  if (options.pendingPoints) {
    // A credit that also holds points; a covered debit never does (nothing calls for both).
    if (options.requireCovered) throw new Error('A covered debit holds no pending points');
    const moved = await moveBalanceAndPending(trx, movement.clientId, movement.participantId, movement.amount, options.pendingPoints);
    balance = moved?.balance;
    pendingPoints = moved?.pendingPoints;
  } else
    balance = await moveBalance(trx, movement.clientId, movement.participantId, movement.amount, {
      covered: options.requireCovered === true,
    });
  if (balance === undefined) {
    if (options.requireCovered) throw new InsufficientBalanceError('The balance does not cover this debit');
    throw new Error('No such participant');
  }
  const id = randomUUID();
  await insertEntry(
    trx,
    id,
    movement.clientId,
    movement.participantId,
    movement.occurredAt,
    movement.description,
    movement.descriptionKey ?? null,
    movement.descriptionParams ? JSON.stringify(movement.descriptionParams) : null,
    movement.amount,
    movement.kind,
    movement.reference ?? null,
    now.toISOString(),
    movement.internalNote ?? null,
    movement.postedBy ?? null,
    movement.requestId ?? null,
  );
  const lotMovement = { entryId: id, participantId: movement.participantId, occurredAt: movement.occurredAt, amount: movement.amount };
  if (movement.amount > 0) await addLot(trx, movement.clientId, lotMovement, now);
  else if (movement.amount < 0 && !(await spendLots(trx, movement.clientId, movement.participantId, id, -movement.amount)))
    throw new InsufficientBalanceError('The open lots do not cover this debit');
  return { entryId: id, balance, ...(pendingPoints !== undefined ? { pendingPoints } : {}) };
}

/** The ledger's own sum, to check the cached balance against. */
export async function ledgerSum(db: Kysely<Database>, clientId: string, participantId: string): Promise<number | null> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => [eb.fn.sum<string | number>('amount').as('total'), eb.fn.countAll().as('entries')])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .executeTakeFirst();
  return row && Number(row.entries) > 0 ? Number(row.total) : null;
}
