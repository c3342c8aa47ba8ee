import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Staff, StaffOidcLogin } from './tables.ts';

type Q = Kysely<Database> | Transaction<Database>;

export async function insertOidcLogin(db: Q, row: StaffOidcLogin): Promise<void> {
  await db.insertInto('staff_oidc_logins').values(row).execute();
}

/** The sign-in a state names, deleted in the same step: only one callback can take it. */
export async function takeOidcLogin(db: Q, state: string): Promise<StaffOidcLogin | undefined> {
  const row = await db.selectFrom('staff_oidc_logins').selectAll().where('state', '=', state).executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('staff_oidc_logins').where('state', '=', state).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? row : undefined;
}

/** Abandoned sign-ins, found by the index on expires_at. */
export async function deleteExpiredOidcLogins(db: Q, nowIso: string): Promise<void> {
  await db.deleteFrom('staff_oidc_logins').where('expires_at', '<=', nowIso).execute();
}

/** The staff account this provider's subject was linked to, if any. */
export async function staffBySubject(db: Q, issuer: string, subject: string): Promise<Staff | undefined> {
  return db
    .selectFrom('staff_oidc_subjects')
    .innerJoin('staff', 'staff.id', 'staff_oidc_subjects.staff_id')
    .selectAll('staff')
    .where('staff_oidc_subjects.issuer', '=', issuer)
    .where('staff_oidc_subjects.subject', '=', subject)
    .executeTakeFirst();
}

/** The subject linked to a person at this issuer, if any. */
export async function subjectOf(db: Q, staffId: string, issuer: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('staff_oidc_subjects')
    .select('subject')
    .where('staff_id', '=', staffId)
    .where('issuer', '=', issuer)
    .executeTakeFirst();
  return row?.subject;
}

/** Links a subject at first sign-in; false when the person (or the subject) got a link meanwhile. */
export async function linkSubject(db: Q, staffId: string, issuer: string, subject: string, nowIso: string): Promise<boolean> {
  const inserted = await db
    .insertInto('staff_oidc_subjects')
    .values({ staff_id: staffId, issuer, subject, linked_at: nowIso })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
