import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** How many rows a table holds (a whole-table count: for summaries, benches and tests, never a request's path). */
export async function rowCount(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
