import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface LedgerMovement {
  clientId: string;
  participantId: string;
  occurredAt: string;
  description: string;
  amount: number;
  kind: 'award' | 'redemption' | 'adjustment' | 'ots';
}

/**
 * Appends one ledger entry and moves the cached balance by the same amount. Takes a
 * transaction so that the entry, the balance and the cause commit together or not at all.
 */
export async function appendLedgerEntry(trx: Transaction<Database>, movement: LedgerMovement, now = new Date()): Promise<void> {
  if (!Number.isSafeInteger(movement.amount)) throw new Error('Points are whole numbers');
  await trx
    .insertInto('ledger_entries')
    .values({
      id: randomUUID(),
      client_id: movement.clientId,
      participant_id: movement.participantId,
      occurred_at: movement.occurredAt,
      description: movement.description,
      amount: movement.amount,
      kind: movement.kind,
      created_at: now.toISOString(),
    })
    .execute();
  await trx
    .updateTable('participants')
    .set({ balance: sql<number>`coalesce(balance, 0) + ${movement.amount}` })
    .where('client_id', '=', movement.clientId)
    .where('id', '=', movement.participantId)
    .execute();
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
