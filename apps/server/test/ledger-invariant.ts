import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/db/database.ts';

/**
 * The ledger's invariant (issue 5, section 4): every participant's stored balance equals the
 * sum of their entries (null with no entry), across every client. Call it after a scenario.
 *
 * And the lots' (issue 19, docs/decisions/057): every credit has its lot; the open lots'
 * remainders sum to the balance; no lot holds less than zero or more than it was credited; and
 * what a lot lost is what its consumptions say it gave.
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

  const lots = await db
    .selectFrom('participants as p')
    .leftJoin('point_lots as l', (join) => join.onRef('l.participant_id', '=', 'p.id').onRef('l.client_id', '=', 'p.client_id'))
    .select(['p.client_id', 'p.username', 'p.balance'])
    .select(sql<string | number | null>`sum(case when l.remaining > 0 then l.remaining else 0 end)`.as('open'))
    .groupBy(['p.id', 'p.client_id', 'p.username', 'p.balance'])
    .execute();
  const unlike = lots
    .map((r) => ({ who: `${r.client_id}/${r.username}`, balance: Number(r.balance ?? 0), lots: Number(r.open ?? 0) }))
    .filter((r) => r.balance !== r.lots);
  expect(unlike, 'participants whose open lots do not sum to their balance').toEqual([]);

  const outOfBounds = await db
    .selectFrom('point_lots')
    .select(['id', 'amount', 'remaining'])
    .where((eb) => eb.or([eb('remaining', '<', 0), eb('remaining', '>', eb.ref('amount'))]))
    .execute();
  expect(outOfBounds, 'lots below zero or above what they were credited').toEqual([]);

  const creditsWithoutLot = await db
    .selectFrom('ledger_entries as e')
    .leftJoin('point_lots as l', 'l.entry_id', 'e.id')
    .select(['e.id', 'e.amount'])
    .where('e.amount', '>', 0)
    .where('l.id', 'is', null)
    .execute();
  expect(creditsWithoutLot, 'credits without a lot').toEqual([]);

  const unexplained = await db
    .selectFrom('point_lots as l')
    .leftJoin('lot_consumptions as c', 'c.lot_id', 'l.id')
    .select(['l.id', 'l.amount', 'l.remaining'])
    .select(sql<string | number | null>`sum(c.amount)`.as('consumed'))
    .groupBy(['l.id', 'l.amount', 'l.remaining'])
    .execute();
  const mismatched = unexplained.filter((r) => Number(r.amount) - Number(r.remaining) !== Number(r.consumed ?? 0));
  expect(mismatched, 'lots whose consumptions do not explain what they lost').toEqual([]);
}
