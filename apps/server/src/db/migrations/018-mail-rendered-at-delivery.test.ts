import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { seedDemo } from '../seed/demo.ts';
import * as migration018 from './018-mail-rendered-at-delivery.ts';

/** Mails sent before migration 018 kept their text, reset links included (docs/decisions/042). */
describe.each(dialects)('migration 018, mail rendered at delivery, on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('erases the text of mails sent or given up before it, and leaves those still to send', async () => {
    const db = database.db;
    // Migrations are written against an untyped database.
    const untyped = db as unknown as Kysely<unknown>;
    await migration018.down(untyped);
    const legacy = (id: string, status: 'sent' | 'failed' | 'pending') =>
      sql`insert into mail_outbox (id, client_id, participant_id, to_address, reply_to, locale, template, subject, text_body, html_body, status, attempts, next_attempt_at, message_id, created_at)
          values (${id}, 'acme', null, 'demo@example.com', null, 'en-US', 'resetPassword', 'Reset', ${`link http://localhost/reset-password?passwordGuid=${id}`}, ${`<a href="http://localhost/reset-password?passwordGuid=${id}">`}, ${status}, 1, '2026-01-01T00:00:00.000Z', ${`<${id}@localhost>`}, '2026-01-01T00:00:00.000Z')`.execute(
        db,
      );
    await legacy('old-sent', 'sent');
    await legacy('old-failed', 'failed');
    await legacy('old-pending', 'pending');
    await migration018.up(untyped);

    const rows = await db.selectFrom('mail_outbox').select(['id', 'subject', 'text_body', 'html_body', 'params']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'old-failed', subject: 'Reset', text_body: '', html_body: '', params: null },
      {
        id: 'old-pending',
        subject: 'Reset',
        text_body: 'link http://localhost/reset-password?passwordGuid=old-pending',
        html_body: '<a href="http://localhost/reset-password?passwordGuid=old-pending">',
        params: null,
      },
      { id: 'old-sent', subject: 'Reset', text_body: '', html_body: '', params: null },
    ]);
  });
});
