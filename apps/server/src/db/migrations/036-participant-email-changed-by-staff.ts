import type { Kysely } from 'kysely';

/**
 * When staff last changed a participant's e-mail address (decision 076): for 24 hours after it,
 * no reset or activation link goes to the new address unless a program manager or an owner who
 * just passed a second factor sends it. Null: never changed by staff.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('participants').addColumn('email_changed_by_staff_at', 'varchar(40)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('participants').dropColumn('email_changed_by_staff_at').execute();
}
