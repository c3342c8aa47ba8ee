import type { Db } from '../../db/database.ts';
import type { ContactRequestsTable } from '../../db/schema.ts';

/** The entries of a key in the given locales, for the service to pick the best one. */
export async function findContentEntries(db: Db, clientId: string, key: string, locales: readonly string[]) {
  return db
    .selectFrom('content_entries')
    .select(['locale', 'body', 'updated_at'])
    .where('client_id', '=', clientId)
    .where('key', '=', key)
    .where('locale', 'in', [...locales])
    .execute();
}

export async function insertContactRequest(db: Db, row: ContactRequestsTable): Promise<void> {
  await db.insertInto('contact_requests').values(row).execute();
}

export async function countContactRequestsSince(db: Db, clientId: string, participantId: string, sinceIso: string): Promise<number> {
  const row = await db
    .selectFrom('contact_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('created_at', '>', sinceIso)
    .executeTakeFirst();
  // PostgreSQL returns count(*) as a string (bigint).
  return Number(row?.count ?? 0);
}
