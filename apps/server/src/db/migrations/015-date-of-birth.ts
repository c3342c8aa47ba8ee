import type { Kysely } from 'kysely';

/**
 * docs/decisions/039. A participant's date of birth, a fact a client may ask for at activation:
 * ISO `YYYY-MM-DD` text (both engines compare it as the string the form sends), null when the
 * program has not given one (such a participant cannot activate with a date-of-birth check).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('participants').addColumn('date_of_birth', 'varchar(10)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('participants').dropColumn('date_of_birth').execute();
}
