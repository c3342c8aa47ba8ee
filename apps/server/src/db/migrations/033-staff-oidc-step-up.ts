import type { Kysely } from 'kysely';

/**
 * A step-up through the staff OpenID provider (issue 20 §6, docs/decisions/068 amended): a sign-in
 * under way may belong to a console session that wants a fresh second factor (step_up_session,
 * the session's id hash) and names the console page to come back to (return_to).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_oidc_logins').addColumn('step_up_session', 'varchar(64)').execute();
  await db.schema.alterTable('staff_oidc_logins').addColumn('return_to', 'varchar(500)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_oidc_logins').dropColumn('return_to').execute();
  await db.schema.alterTable('staff_oidc_logins').dropColumn('step_up_session').execute();
}
