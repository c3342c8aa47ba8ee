import type { Db } from '../../db/database.ts';
import type { Insertable } from 'kysely';
import type { ContactRequestsTable } from './tables.ts';

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

export async function insertContactRequest(db: Db, row: Insertable<ContactRequestsTable>): Promise<void> {
  await db.insertInto('contact_requests').values(row).execute();
}

/** A client's contact requests, newest first. */
export async function listContactRequestRows(db: Db, options: { clientId: string; since?: string | undefined; limit: number }) {
  let query = db
    .selectFrom('contact_requests as c')
    .select([
      'c.id',
      'c.created_at',
      'c.participant_id',
      'c.username',
      'c.account_number',
      'c.account_email',
      'c.reply_email',
      'c.phone',
      'c.locale',
      'c.topic',
      'c.subject',
      'c.message',
      'c.admin_as_user',
      'c.status',
      'c.mail_id',
    ])
    .where('c.client_id', '=', options.clientId)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(options.limit);
  if (options.since !== undefined) query = query.where('c.created_at', '>=', options.since);
  return query.execute();
}

/** A client's content texts without their bodies: which key exists in which locale, and its size. */
export async function listContentEntries(db: Db, clientId: string) {
  return db
    .selectFrom('content_entries')
    .select((eb) => ['key', 'locale', 'updated_at', eb.fn<number>('length', ['body']).as('length')])
    .where('client_id', '=', clientId)
    .orderBy('key')
    .orderBy('locale')
    .execute();
}

export async function findContentEntry(db: Db, clientId: string, locale: string, key: string) {
  return db
    .selectFrom('content_entries')
    .select(['body', 'updated_at'])
    .where('client_id', '=', clientId)
    .where('locale', '=', locale)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function insertContentEntry(
  db: Db,
  row: { client_id: string; locale: string; key: string; body: string; updated_at: string },
) {
  await db.insertInto('content_entries').values(row).execute();
}

export async function updateContentEntry(db: Db, clientId: string, locale: string, key: string, body: string, updatedAt: string) {
  await db
    .updateTable('content_entries')
    .set({ body, updated_at: updatedAt })
    .where('client_id', '=', clientId)
    .where('locale', '=', locale)
    .where('key', '=', key)
    .execute();
}

export async function deleteContentEntry(db: Db, clientId: string, locale: string, key: string) {
  await db.deleteFrom('content_entries').where('client_id', '=', clientId).where('locale', '=', locale).where('key', '=', key).execute();
}

/** A participant's newest contact requests (the console's participant page). */
export async function participantContactRequests(db: Db, clientId: string, participantId: string, limit: number) {
  return db
    .selectFrom('contact_requests')
    .select(['id', 'topic', 'subject', 'status', 'created_at'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
