import type { Kysely } from 'kysely';

// Dialect-neutral: ids and times come from code, no engine-specific defaults (ARCHITECTURE.md, Data).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('default_locale', 'text', (c) => c.notNull())
    .addColumn('logo', 'text', (c) => c.notNull())
    .addColumn('brand_color', 'text', (c) => c.notNull())
    .addColumn('privacy_notice_version', 'integer', (c) => c.notNull())
    .addColumn('sso_type', 'text', (c) => c.notNull())
    .addColumn('sso_logout_type', 'text', (c) => c.notNull())
    .addColumn('site_name', 'text', (c) => c.notNull())
    .addColumn('site_url', 'text', (c) => c.notNull())
    .addColumn('password_rules', 'text', (c) => c.notNull())
    .addColumn('activation_fields', 'text', (c) => c.notNull())
    .addColumn('countries', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('client_hosts')
    .addColumn('hostname', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .execute();

  await db.schema
    .createTable('client_locales')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('dir', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_locales_pk', ['client_id', 'code'])
    .execute();

  await db.schema
    .createTable('translations')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('translations_pk', ['client_id', 'locale', 'key'])
    .execute();

  await db.schema
    .createTable('media_labels')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('forms', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_labels_pk', ['client_id', 'locale'])
    .execute();

  await db.schema
    .createTable('participants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('offers_merchandise', 'integer', (c) => c.notNull())
    .addColumn('offers_experiences', 'integer', (c) => c.notNull())
    .addColumn('ots_enabled', 'integer', (c) => c.notNull())
    .addColumn('privacy_ack_version', 'integer', (c) => c.notNull())
    .addColumn('balance', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('participants_username_uq', ['client_id', 'username_key'])
    .addUniqueConstraint('participants_account_uq', ['client_id', 'account_number'])
    .execute();

  await db.schema
    .createTable('participant_programs')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('program_name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('participant_programs_pk', ['participant_id', 'program_name'])
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_participant_idx')
    .on('ledger_entries')
    .columns(['client_id', 'participant_id', 'occurred_at'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('admin_as_user', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('idle_expires_at', 'text', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_participant_idx').on('sessions').columns(['participant_id']).execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_subject_idx').on('login_failures').columns(['client_id', 'subject', 'failed_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'login_failures',
    'sessions',
    'ledger_entries',
    'participant_programs',
    'participants',
    'media_labels',
    'translations',
    'client_locales',
    'client_hosts',
    'clients',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
