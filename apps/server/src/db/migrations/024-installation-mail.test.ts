import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { seedDemo } from '../seed/demo.ts';
import * as migration024 from './024-installation-mail.ts';

/** docs/decisions/049: a mail of the installation has no client; SQLite rebuilds the table for it, keeping every row. */
describe.each(dialects)('migration 024, installation mail, on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  const insert = (id: string, clientId: string | null) =>
    sql`insert into mail_outbox (id, client_id, participant_id, to_address, reply_to, locale, template, subject, text_body, html_body, status, attempts, next_attempt_at, claimed_until, last_error, delivery_note, sent_at, message_id, created_at, params)
        values (${id}, ${clientId}, 'p1', 'demo@example.com', 'desk@example.com', 'en-US', 'resetPassword', 'Reset', 'text', '<p>html</p>', 'sent', 2, '2026-01-01T00:00:00.000Z', null, 'refused: 451', 'smtp: 250 ok', '2026-01-01T00:01:00.000Z', ${`<${id}@localhost>`}, '2026-01-01T00:00:00.000Z', '{"values":{}}')`.execute(
      database.db,
    );

  async function indexes(): Promise<string[]> {
    const db = database.db;
    const rows =
      dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'mail_outbox' and name not like 'sqlite_%'`.execute(db)
          ).rows
        : (
            await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where tablename = 'mail_outbox' and indexname not like '%pkey'`.execute(db)
          ).rows;
    return rows.map((r) => r.name).sort();
  }

  it('keeps every row and column, its indexes and the foreign key; takes a row without a client; down takes it back', async () => {
    const db = database.db;
    const untyped = db as unknown as Kysely<unknown>;
    // Whatever other migrations indexed (006 two, 023 one more), the rebuild keeps.
    const indexed = await indexes();
    expect(indexed).toEqual(['mail_outbox_client_idx', 'mail_outbox_due_idx', 'mail_outbox_participant_idx']);
    await migration024.down(untyped);
    expect(await indexes()).toEqual(indexed);
    await insert('before', 'acme');
    await expect(insert('no-client-yet', null)).rejects.toThrow();
    const before = await db.selectFrom('mail_outbox').selectAll().where('id', '=', 'before').execute();

    await migration024.up(untyped);
    expect(await db.selectFrom('mail_outbox').selectAll().where('id', '=', 'before').execute()).toEqual(before);
    expect(await indexes()).toEqual(indexed);
    await insert('installation', null);
    await expect(insert('unknown-client', 'nowhere')).rejects.toThrow();

    await migration024.down(untyped);
    expect(
      (await db.selectFrom('mail_outbox').select('id').where('id', 'in', ['before', 'installation']).execute()).map((r) => r.id),
    ).toEqual(['before']);
    await expect(insert('no-client-again', null)).rejects.toThrow();
    await migration024.up(untyped);
    expect(await indexes()).toEqual(indexed);
  });
});
