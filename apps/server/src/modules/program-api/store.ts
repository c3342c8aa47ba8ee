import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ProgramApiPostingsTable } from './tables.ts';

/** The program API's own table (migration 040): its postings, taken once per client and externalId. */

type Q = Kysely<Database>;

export async function findPosting(db: Q, clientId: string, externalId: string) {
  return db
    .selectFrom('program_api_postings')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

/**
 * Takes the externalId, first thing in the posting's transaction: a concurrent twin fails on the
 * primary key (on PostgreSQL, after waiting for this one's commit or rollback).
 */
export async function insertPosting(trx: Transaction<Database>, row: ProgramApiPostingsTable): Promise<void> {
  await trx.insertInto('program_api_postings').values(row).execute();
}

export async function setPostingReply(
  trx: Transaction<Database>,
  clientId: string,
  externalId: string,
  entryId: string,
  reply: string,
): Promise<void> {
  await trx
    .updateTable('program_api_postings')
    .set({ entry_id: entryId, reply })
    .where('client_id', '=', clientId)
    .where('external_id', '=', externalId)
    .execute();
}

/**
 * Marks the posting reversed, only if it was not: one UPDATE is the check and the claim, so of
 * two concurrent reversals one finds it still open (PostgreSQL's row lock makes the other wait
 * and then find it taken; SQLite runs one transaction at a time). False: reversed already.
 */
export async function claimReversal(
  trx: Transaction<Database>,
  clientId: string,
  externalId: string,
  points: number,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('program_api_postings')
    .set({ reversed_points: points, reversed_at: at })
    .where('client_id', '=', clientId)
    .where('external_id', '=', externalId)
    .where('reversed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setReversalEntry(trx: Transaction<Database>, clientId: string, externalId: string, entryId: string): Promise<void> {
  await trx
    .updateTable('program_api_postings')
    .set({ reversal_entry_id: entryId })
    .where('client_id', '=', clientId)
    .where('external_id', '=', externalId)
    .execute();
}

/** For these ledger entries of the client, the externalId of the posting each made or reversed. */
export async function postingsOfEntries(
  db: Q,
  clientId: string,
  entryIds: readonly string[],
): Promise<Map<string, { externalId: string; reversal: boolean }>> {
  const found = new Map<string, { externalId: string; reversal: boolean }>();
  if (entryIds.length === 0) return found;
  const rows = await db
    .selectFrom('program_api_postings')
    .select(['external_id', 'entry_id', 'reversal_entry_id'])
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('entry_id', 'in', entryIds), eb('reversal_entry_id', 'in', entryIds)]))
    .execute();
  for (const row of rows) {
    found.set(row.entry_id, { externalId: row.external_id, reversal: false });
    if (row.reversal_entry_id !== null) found.set(row.reversal_entry_id, { externalId: row.external_id, reversal: true });
  }
  return found;
}
