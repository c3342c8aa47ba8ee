import { sql, type Kysely } from 'kysely';

/**
 * Issue 30 §1, the import job's bytes (docs/decisions/091, amended 2026-11-28, night): the staged
 * lines' index of alternate keys holds only the lines that have one. Only a participants file has
 * alternate keys (account numbers); a points or events line had an entry of its own in it all the
 * same, (job, null, line): at 1,000,000 points lines 55 MB of index, written as they were staged,
 * copied by a checkpoint, and deleted after the run (staging wrote 1,005 MB, now 795).
 * The one query that reads it (store.ts firstLinesOf: `alt_key in (…)`) implies `alt_key is not
 * null`, so both engines use the partial index where they used the whole one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('import_lines_alt_key_present_idx')
    .on('import_lines')
    .columns(['job_id', 'alt_key', 'line'])
    .where(sql.ref('alt_key'), 'is not', null)
    .execute();
  // contracts (decision 080): the index replaced is never needed by the version before: its only
  // query (alt_key in a list) is served by the partial index created just above, with the same rows.
  await db.schema.dropIndex('import_lines_alt_key_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('import_lines_alt_key_idx').on('import_lines').columns(['job_id', 'alt_key', 'line']).execute();
  await db.schema.dropIndex('import_lines_alt_key_present_idx').execute();
}
