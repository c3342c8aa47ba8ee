import type { Kysely } from 'kysely';

/**
 * docs/decisions/042. A mail is rendered by the delivery worker, not in the request that queues
 * it: the row carries the template's values (JSON) until it is delivered or given up, and then
 * nothing that could hold a link (the values, the text and the HTML) is kept. Rows of earlier
 * versions that were already sent or given up lose their text and HTML here: they held reset
 * links in clear.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('params', 'text').execute();
  const outbox = db as Kysely<{ mail_outbox: { status: string; text_body: string; html_body: string } }>;
  await outbox.updateTable('mail_outbox').set({ text_body: '', html_body: '' }).where('status', 'in', ['sent', 'failed']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('params').execute();
}
