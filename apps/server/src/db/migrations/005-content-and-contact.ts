import type { Kysely } from 'kysely';

// Content pages per client and locale, and the contact requests the client's support desk reads.
// Dialect-neutral, like 001: ids and times from code, times ISO-8601 UTC text, flags 0/1.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_entries')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_entries_pk', ['client_id', 'locale', 'key'])
    .execute();

  await db.schema
    .createTable('contact_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('account_email', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('reply_email', 'text')
    .addColumn('phone', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('admin_as_user', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // The throttle counts a participant's recent requests; the desk lists a client's by date.
  await db.schema
    .createIndex('contact_requests_participant_idx')
    .on('contact_requests')
    .columns(['client_id', 'participant_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_requests').execute();
  await db.schema.dropTable('content_entries').execute();
}
