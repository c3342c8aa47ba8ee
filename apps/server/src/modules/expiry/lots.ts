import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { LotBook, type Consumption, type Lot } from './lot-book.ts';
import { expiryDatingOf } from '../clients/service.ts';
import { insertConsumptions, insertLots, lotsCovering, openLotsOf, setRemaining, type NewLot } from './lot-store.ts';
import { dayOfTimestamp, expiresOn, parsePolicy } from './policy.ts';

/**
 * The lots' face to the ledger (docs/decisions/057): every credit makes a lot, every debit takes
 * from the open lots in spending order, in the transaction of its ledger entry and after the
 * participant's balance moved, so under the same lock (the balance UPDATE's row lock on
 * PostgreSQL; SQLite's one writer). The open lots' remainders then always sum to the balance.
 */

/** One ledger movement as the lots see it: its entry, participant, when it happened and how much. */
export interface LotMovement {
  entryId: string;
  participantId: string;
  occurredAt: string;
  amount: number;
}

interface Dating {
  (occurredAt: string): { earnedOn: string; expiresOn: string | null };
}

/** How this client dates a lot: the earning's day in its time zone, and the expiry its policy gives it now. */
async function datingOf(trx: Transaction<Database>, clientId: string): Promise<Dating> {
  const settings = await expiryDatingOf(trx, clientId);
  const policy = parsePolicy(settings?.expiry_policy ?? '{"type":"none"}');
  const timeZone = settings?.time_zone ?? 'UTC';
  return (occurredAt) => {
    const earnedOn = dayOfTimestamp(occurredAt, timeZone);
    return { earnedOn, expiresOn: expiresOn(policy, earnedOn) };
  };
}

/** A credit's lot. */
export async function addLot(trx: Transaction<Database>, clientId: string, credit: LotMovement, now: Date): Promise<void> {
  const dated = (await datingOf(trx, clientId))(credit.occurredAt);
  await insertLots(
    trx,
    clientId,
    [{ id: credit.entryId, participantId: credit.participantId, ...dated, amount: credit.amount, remaining: credit.amount }],
    now.toISOString(),
  );
}

/**
 * A debit of `points` (positive) taken from the participant's open lots in spending order, each
 * consumption written; false, with nothing written, when the open lots do not cover it.
 */
export async function spendLots(
  trx: Transaction<Database>,
  clientId: string,
  participantId: string,
  entryId: string,
  points: number,
): Promise<boolean> {
  const lots = await lotsCovering(trx, clientId, participantId, points);
  const before = new Map(lots.map((lot) => [lot.id, lot.remaining]));
  const book = new LotBook(lots);
  const consumed = book.debit(entryId, points);
  if (!consumed) return false;
  await writeOutcome(trx, clientId, [], before, book.touched.values(), consumed, '');
  return true;
}

/** A debit among the movements that the open lots did not cover: the balance and the lots disagree, or a debit took a balance below zero. */
export class LotsDoNotCoverError extends Error {
  override name = 'LotsDoNotCoverError';
}

/**
 * The bulk twin (modules/ledger/bulk.ts): the movements of one client, in their order, each
 * credit a new lot and each debit taken from the lots open at its turn, the ones made earlier in
 * the same call included. One read of the open lots of the participants with a debit, the order
 * walked in memory, multi-row writes. Throws LotsDoNotCoverError if a debit is not covered.
 */
export async function applyToLots(
  trx: Transaction<Database>,
  clientId: string,
  movements: readonly LotMovement[],
  now: Date,
): Promise<void> {
  if (movements.length === 0) return;
  const dating = await datingOf(trx, clientId);
  const spenders = new Set(movements.filter((m) => m.amount < 0).map((m) => m.participantId));
  const existing = spenders.size > 0 ? await openLotsOf(trx, clientId, [...spenders]) : [];
  const before = new Map(existing.map((lot) => [lot.id, lot.remaining]));
  const byParticipant = new Map<string, Lot[]>();
  for (const lot of existing) {
    const list = byParticipant.get(lot.participantId);
    if (list) list.push(lot);
    else byParticipant.set(lot.participantId, [lot]);
  }
  const books = new Map<string, LotBook>();
  const bookOf = (participantId: string): LotBook => {
    let book = books.get(participantId);
    if (!book) {
      book = new LotBook(byParticipant.get(participantId) ?? []);
      books.set(participantId, book);
    }
    return book;
  };

  const created: NewLot[] = [];
  const consumed: Consumption[] = [];
  for (const movement of movements) {
    if (movement.amount > 0) {
      const lot: NewLot = {
        id: movement.entryId,
        participantId: movement.participantId,
        ...dating(movement.occurredAt),
        amount: movement.amount,
        remaining: movement.amount,
      };
      created.push(lot);
      // Only a participant with a debit needs a book; the others' lots are written as they are.
      if (spenders.has(movement.participantId)) bookOf(movement.participantId).credit(lot);
    } else if (movement.amount < 0) {
      const taken = bookOf(movement.participantId).debit(movement.entryId, -movement.amount);
      if (!taken) throw new LotsDoNotCoverError('The open lots do not cover a debit');
      for (const c of taken) consumed.push(c);
    }
  }
  const touched: Lot[] = [];
  for (const book of books.values()) for (const lot of book.touched.values()) touched.push(lot);
  await writeOutcome(trx, clientId, created, before, touched, consumed, now.toISOString());
}

/** Writes new lots (with what remains of them), the changed remainders of existing ones, and the consumptions. */
async function writeOutcome(
  trx: Transaction<Database>,
  clientId: string,
  created: readonly NewLot[],
  before: ReadonlyMap<string, number>,
  touched: Iterable<Lot>,
  consumed: readonly Consumption[],
  createdAt: string,
): Promise<void> {
  if (created.length > 0) await insertLots(trx, clientId, created, createdAt);
  const updates: Array<{ id: string; before: number; after: number }> = [];
  for (const lot of touched) {
    const was = before.get(lot.id);
    if (was !== undefined && was !== lot.remaining) updates.push({ id: lot.id, before: was, after: lot.remaining });
  }
  if (updates.length > 0) await setRemaining(trx, updates);
  if (consumed.length > 0) await insertConsumptions(trx, consumed);
}
