import type { Db } from '../../db/database.ts';

/** The lease's SQL (lease.ts says what it is for). */

/** Takes a lease nobody holds yet; false if the row exists. */
export async function insertLease(db: Db, name: string, holder: string, expiresAt: string): Promise<boolean> {
  const result = await db
    .insertInto('job_leases')
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Takes a lease that ran out, or extends one this holder has; false if another holds it. */
export async function claimLease(db: Db, name: string, holder: string, now: string, expiresAt: string): Promise<boolean> {
  const result = await db
    .updateTable('job_leases')
    .set({ holder, expires_at: expiresAt })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('holder', '=', holder)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends a lease only while this holder has it. */
export async function extendLease(db: Db, name: string, holder: string, now: string, expiresAt: string): Promise<boolean> {
  const result = await db
    .updateTable('job_leases')
    .set({ expires_at: expiresAt })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a lease this holder has: run out since forever, so any clock takes it next. */
export async function endLease(db: Db, name: string, holder: string): Promise<void> {
  await db.updateTable('job_leases').set({ expires_at: ENDED }).where('name', '=', name).where('holder', '=', holder).execute();
}

const ENDED = new Date(0).toISOString();

/** Who holds a lease and until when; undefined if nobody ever took it. */
export async function findLease(db: Db, name: string): Promise<{ holder: string; expires_at: string } | undefined> {
  return db.selectFrom('job_leases').select(['holder', 'expires_at']).where('name', '=', name).executeTakeFirst();
}
