import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/db/database.ts';

/**
 * The ledger's invariant (issue 5, section 4): every participant's stored balance equals the
 * sum of their entries (null with no entry), across every client. Call it after a scenario.
 */
export async function expectLedgerMatchesBalances(db: Db): Promise<void> {
  const rows = await db
    .selectFrom('participants as p')
    .leftJoin('ledger_entries as e', (join) => join.onRef('e.participant_id', '=', 'p.id').onRef('e.client_id', '=', 'p.client_id'))
    .select(['p.client_id', 'p.username', 'p.balance'])
    .select((eb) => [eb.fn.sum<string | number | null>('e.amount').as('total'), sql<string | number>`count(e.id)`.as('entries')])
    .groupBy(['p.id', 'p.client_id', 'p.username', 'p.balance'])
    .execute();
  const disagreeing = rows
    .map((r) => ({ who: `${r.client_id}/${r.username}`, balance: r.balance, sum: Number(r.entries) > 0 ? Number(r.total) : null }))
    .filter((r) => r.balance !== r.sum);
  expect(disagreeing, 'participants whose balance is not the sum of their ledger').toEqual([]);
}
