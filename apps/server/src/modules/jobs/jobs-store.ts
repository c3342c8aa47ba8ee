import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { JobsTable } from './tables.ts';

/** The jobs' and slots' SQL (service.ts says what they are for). */

export type Job = Selectable<JobsTable>;

export async function insertJob(db: Db, job: Insertable<JobsTable>): Promise<void> {
  await db.insertInto('jobs').values(job).execute();
}

export async function findJob(db: Db, clientId: string, id: string): Promise<Job | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
}

export async function findJobById(db: Db, id: string): Promise<Job | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A client's jobs, newest first. */
export async function listJobs(db: Db, clientId: string, limit: number): Promise<Job[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Ids of the jobs in one of these statuses, oldest first (a process resumes those being previewed or run). */
export async function jobIdsIn(db: Db, statuses: readonly string[]): Promise<string[]> {
  return (await db.selectFrom('jobs').select('id').where('status', 'in', statuses).orderBy('created_at').execute()).map((r) => r.id);
}

/** Jobs in one of these statuses whose row last changed before `before` (oldest first): the clean-up of staged imports. */
export async function jobsIdleSince(db: Db, statuses: readonly string[], before: string, limit: number): Promise<Job[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('status', 'in', statuses)
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** Changes a job only while it is in the status given (or one of those given); false if it was not. */
export async function updateJobIf(db: Db, id: string, status: string | readonly string[], change: Updateable<JobsTable>): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set(change)
    .where('id', '=', id)
    .where('status', 'in', typeof status === 'string' ? [status] : status)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves a running job whose cursor is still `cursor` (the batch it ran was read from there); false if it moved meanwhile. */
export async function updateRunningJobAt(db: Db, id: string, cursor: number, change: Updateable<JobsTable>): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('cursor', '=', cursor)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteJob(db: Db, id: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).execute();
}

/** Takes the client's slot for the job; false if another job holds it (the primary key decides, atomically). */
export async function insertSlot(db: Db, clientId: string, jobId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('job_slots')
    .values({ client_id: clientId, job_id: jobId, taken_at: at })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function slotHolder(db: Db, clientId: string): Promise<Job | undefined> {
  return db
    .selectFrom('job_slots')
    .innerJoin('jobs', 'jobs.id', 'job_slots.job_id')
    .selectAll('jobs')
    .where('job_slots.client_id', '=', clientId)
    .executeTakeFirst();
}

export async function deleteSlot(db: Db, clientId: string, jobId: string): Promise<void> {
  await db.deleteFrom('job_slots').where('client_id', '=', clientId).where('job_id', '=', jobId).execute();
}

/**
 * Jobs by kind and state among `states`, through jobs_status_idx, reading at most `cap` rows: a
 * count at `cap` means "cap or more", so a metrics scrape costs the same however many jobs exist.
 */
export async function countJobsByState(
  db: Db,
  states: readonly string[],
  cap: number,
): Promise<Array<{ kind: string; state: string; count: number }>> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('jobs')
        .select(['kind', 'status'])
        .where('status', 'in', [...states])
        .limit(cap)
        .as('j'),
    )
    .select((eb) => ['j.kind', 'j.status', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['j.kind', 'j.status'])
    .execute();
  return rows.map((row) => ({ kind: row.kind, state: row.status, count: Number(row.n) }));
}
