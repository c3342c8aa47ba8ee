import type { Kysely } from 'kysely';

// Pre-registered for issue work (012-sso); filled by the capability that needs it.
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
