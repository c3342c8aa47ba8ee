import type { Kysely } from 'kysely';

/**
 * Contact messages reach the support desk by mail (docs/decisions/038): an outbox row may carry a
 * Reply-To (the participant's address, so the desk answers them directly), and a contact request
 * names the outbox row that carries it (null: the client has no support address, or older rows).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'text').execute();
  await db.schema.alterTable('contact_requests').addColumn('mail_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('contact_requests').dropColumn('mail_id').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('reply_to').execute();
}
