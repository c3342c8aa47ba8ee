import type { Kysely } from 'kysely';

// Filled in by the mail capability (issue 7). Dialect-neutral, like 001.
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
