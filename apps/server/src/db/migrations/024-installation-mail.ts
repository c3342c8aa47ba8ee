import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * docs/decisions/049. A mail of the installation rather than of a client (the staff console's
 * enrolment links) is an outbox row with client_id null; everything else about it (the worker,
 * the claim, the retries, the erasure after delivery of decision 042) is a client mail's.
 *
 * PostgreSQL drops the NOT NULL in place (the foreign key to clients stays: null references
 * nothing). SQLite cannot change a column's constraint, so the table is rebuilt as its own
 * documentation says (create the new shape, copy, drop, rename, then the indexes and triggers the
 * table had, read from sqlite_master), in one transaction; no table has a foreign key to
 * mail_outbox (contact_requests.mail_id is a plain column).
 */
const COLUMNS = sql.raw(
  'id, client_id, participant_id, to_address, locale, template, subject, text_body, html_body, status, attempts, next_attempt_at, claimed_until, last_error, delivery_note, sent_at, message_id, created_at, reply_to, params',
);

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema
      .alterTable('mail_outbox')
      .alterColumn('client_id', (c) => c.dropNotNull())
      .execute();
    return;
  }
  await rebuildOnSqlite(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const outbox = db as Kysely<{ mail_outbox: { client_id: string | null } }>;
  await outbox.deleteFrom('mail_outbox').where('client_id', 'is', null).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema
      .alterTable('mail_outbox')
      .alterColumn('client_id', (c) => c.setNotNull())
      .execute();
    return;
  }
  await rebuildOnSqlite(db, false);
}

async function rebuildOnSqlite(db: Kysely<unknown>, nullableClient: boolean): Promise<void> {
  // SQLite's migrations run outside a transaction (no transactional DDL in Kysely's adapter):
  // the rebuild takes one of its own, so a crash half-way leaves the old table as it was.
  await db.transaction().execute(async (trx) => {
    // The table's indexes and triggers as they are now, whichever migrations made them (numbers
    // land in any order: 023 adds one), to be made again on the new table.
    const kept = await sql<{
      sql: string;
    }>`select sql from sqlite_master where tbl_name = 'mail_outbox' and type in ('index', 'trigger') and sql is not null order by type, name`.execute(
      trx,
    );
    await trx.schema
      .createTable('mail_outbox_024')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => (nullableClient ? c.references('clients.id') : c.notNull().references('clients.id')))
      .addColumn('participant_id', 'text')
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('delivery_note', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('reply_to', 'text')
      .addColumn('params', 'text')
      .execute();
    await sql`insert into mail_outbox_024 (${COLUMNS}) select ${COLUMNS} from mail_outbox`.execute(trx);
    await trx.schema.dropTable('mail_outbox').execute();
    await trx.schema.alterTable('mail_outbox_024').renameTo('mail_outbox').execute();
    for (const { sql: statement } of kept.rows) await sql.raw(statement).execute(trx);
  });
}
