import type { Kysely } from 'kysely';

/**
 * Issue 20 §2, imports in the console as jobs (docs/decisions/064).
 * - jobs: one row per background job of a client (today: a points or participants import), its
 *   status, progress (the last line done, and counts) and its preview and result as JSON.
 * - job_slots: one row per client while a job of it runs; its primary key is the one-job-per-client
 *   rule, taken atomically by an INSERT before any work.
 * - import_lines: the uploaded file's records, staged in chunks as they stream in, so any process
 *   can preview, run or resume the job; key (the external id or the username key) and alt_key (an
 *   account number) find repeats within the file by index instead of in memory.
 * - import_rejects: the rejected lines of the preview and of the run, for the page and the CSV.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(320)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('confirmed_by', 'varchar(320)')
    .addColumn('started_at', 'varchar(32)')
    .addColumn('finished_at', 'varchar(32)')
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preview', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('jobs_client_idx').on('jobs').columns(['client_id', 'created_at']).execute();
  await db.schema.createIndex('jobs_status_idx').on('jobs').columns(['status']).execute();

  await db.schema
    .createTable('job_slots')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('import_lines')
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    // JSON array of the record's fields; null when the line was not readable as CSV (problem says why).
    .addColumn('fields', 'text')
    .addColumn('problem', 'text')
    .addColumn('key', 'varchar(255)')
    .addColumn('alt_key', 'varchar(255)')
    .addPrimaryKeyConstraint('import_lines_pk', ['job_id', 'line'])
    .execute();
  await db.schema.createIndex('import_lines_key_idx').on('import_lines').columns(['job_id', 'key', 'line']).execute();
  await db.schema.createIndex('import_lines_alt_key_idx').on('import_lines').columns(['job_id', 'alt_key', 'line']).execute();

  await db.schema
    .createTable('import_rejects')
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('phase', 'varchar(8)', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_rejects_pk', ['job_id', 'phase', 'line'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['import_rejects', 'import_lines', 'job_slots', 'jobs']) await db.schema.dropTable(table).execute();
}
