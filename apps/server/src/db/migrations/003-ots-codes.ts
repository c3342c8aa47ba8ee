import type { Kysely } from 'kysely';

// Filled in by the ots capability (issue 5). Dialect-neutral, like 001.
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
