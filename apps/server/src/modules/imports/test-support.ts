import type { Db } from '../../db/database.ts';

/** The points file's header, as the console's upload and the command read it. */
export const POINTS_HEADER = 'username,points,date,description,external_id';

/** A points CSV as an upload's streamed body: the header, then `lines`. */
export async function* pointsFile(lines: readonly string[]): AsyncGenerator<string> {
  yield [POINTS_HEADER, ...lines].join('\n') + '\n';
}

/** How many staged lines or rejects a job has. */
export async function jobRows(db: Db, table: 'import_lines' | 'import_rejects', jobId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many ledger entries imports posted under external ids starting with `prefix`. */
export async function postedEntries(db: Db, prefix: string): Promise<number> {
  return (await db.selectFrom('ledger_entries').select('reference').where('reference', 'like', `import:${prefix}%`).execute()).length;
}
