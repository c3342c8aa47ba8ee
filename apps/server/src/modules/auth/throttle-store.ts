import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';

export async function countFailuresSince(db: Db, clientId: string, subject: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('client_id', '=', clientId)
    .where('subject', '=', subject)
    .where('failed_at', '>', since)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function recordFailures(db: Db, clientId: string, subjects: string[], failedAt: string): Promise<void> {
  await db
    .insertInto('login_failures')
    .values(subjects.map((subject) => ({ id: randomUUID(), client_id: clientId, subject, failed_at: failedAt })))
    .execute();
}

export async function clearFailures(db: Db, clientId: string, subject: string): Promise<void> {
  await db.deleteFrom('login_failures').where('client_id', '=', clientId).where('subject', '=', subject).execute();
}

export async function deleteFailuresBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('login_failures').where('failed_at', '<=', before).execute();
}
