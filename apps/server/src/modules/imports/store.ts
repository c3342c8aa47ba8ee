import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { padded } from '../../db/statement-shapes.ts';
import type { ImportLinesTable } from './tables.ts';

/** The staged lines' and rejects' SQL (service.ts says what they are for). */

export interface StagedLine {
  line: number;
  fields: string | null;
  problem: string | null;
}

export async function insertStaged(db: Db, rows: Array<Insertable<ImportLinesTable>>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('import_lines')
    .values(rows)
    .onConflict((oc) => oc.columns(['job_id', 'line']).doNothing())
    .execute();
}

export async function stagedAfter(db: Db, jobId: string, after: number, limit: number): Promise<StagedLine[]> {
  return db
    .selectFrom('import_lines')
    .select(['line', 'fields', 'problem'])
    .where('job_id', '=', jobId)
    .where('line', '>', after)
    .orderBy('line')
    .limit(limit)
    .execute();
}

/** The first line of the file with each of these keys (by the staging index). */
export async function firstLinesOf(db: Db, jobId: string, column: 'key' | 'alt_key', keys: string[]): Promise<Map<string, number>> {
  const first = new Map<string, number>();
  const distinct = [...new Set(keys)];
  for (let from = 0; from < distinct.length; from += 512) {
    const rows = await db
      .selectFrom('import_lines')
      .select([column, (eb) => eb.fn.min('line').as('first')])
      .where('job_id', '=', jobId)
      .where(column, 'in', padded(distinct.slice(from, from + 512)))
      .groupBy(column)
      .execute();
    for (const row of rows) first.set(row[column] as string, Number(row.first));
  }
  return first;
}

export async function insertRejects(
  db: Db,
  jobId: string,
  phase: 'preview' | 'run',
  rejects: ReadonlyArray<{ line: number; reason: string }>,
): Promise<void> {
  for (let from = 0; from < rejects.length; from += 500) {
    await db
      .insertInto('import_rejects')
      .values(rejects.slice(from, from + 500).map((r) => ({ job_id: jobId, phase, line: r.line, reason: r.reason })))
      .onConflict((oc) => oc.columns(['job_id', 'phase', 'line']).doNothing())
      .execute();
  }
}

export async function rejectsAfter(
  db: Db,
  jobId: string,
  phase: 'preview' | 'run',
  after: number,
  limit: number,
): Promise<Array<{ line: number; reason: string }>> {
  return db
    .selectFrom('import_rejects')
    .select(['line', 'reason'])
    .where('job_id', '=', jobId)
    .where('phase', '=', phase)
    .where('line', '>', after)
    .orderBy('line')
    .limit(limit)
    .execute();
}

/** A job's staged lines, once it ended (its rejects stay, for the CSV). */
export async function deleteStagedLines(db: Db, jobId: string): Promise<void> {
  await db.deleteFrom('import_lines').where('job_id', '=', jobId).execute();
}

/** A staging that failed: all it staged (the job's row is the jobs module's). */
export async function deleteStaged(db: Db, jobId: string): Promise<void> {
  await db.deleteFrom('import_lines').where('job_id', '=', jobId).execute();
  await db.deleteFrom('import_rejects').where('job_id', '=', jobId).execute();
}
