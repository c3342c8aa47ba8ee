import { sql, type Kysely } from 'kysely';

/**
 * Issue 32 §3, pending points and returns (docs/decisions/098). Expand only: new columns with
 * defaults or nullable, two partial indexes, and the lines of 042's events given their participant.
 * - participants.pending_points: the participant's points earned and not yet spendable, kept in
 *   the same transactions as the lines (the events' posting, the release run, a return), so GET
 *   user reads it with the row it already reads.
 * - participant_event_lines: participant_id (so a participant's open pending lines are found
 *   without walking their events), released_at (the release run credited the line; null: still
 *   pending), reversed_points (what returns took back of the line, debt included),
 *   debt_points (on a return's line: what it could not take back).
 * - participant_events: returned_amount (the amount returned so far against an original event,
 *   cumulative, so partial returns never drift), reversed_points (the points reversed of it so
 *   far), debt_points (on a return: what it could not take back, the balance being short).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('participants')
    .addColumn('pending_points', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable('participant_event_lines').addColumn('participant_id', 'text').execute();
  await db.schema.alterTable('participant_event_lines').addColumn('released_at', 'varchar(32)').execute();
  await db.schema
    .alterTable('participant_event_lines')
    .addColumn('reversed_points', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('participant_event_lines')
    .addColumn('debt_points', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('participant_events').addColumn('returned_amount', 'varchar(32)').execute();
  await db.schema
    .alterTable('participant_events')
    .addColumn('reversed_points', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('participant_events')
    .addColumn('debt_points', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // The lines kept before this migration: their participant, and their pending total.
  await sql`UPDATE participant_event_lines SET participant_id = (SELECT e.participant_id FROM participant_events e WHERE e.client_id = participant_event_lines.client_id AND e.id = participant_event_lines.event_id)`.execute(
    db,
  );
  await sql`UPDATE participants SET pending_points = (SELECT coalesce(sum(l.points), 0) FROM participant_event_lines l WHERE l.client_id = participants.client_id AND l.participant_id = participants.id AND l.pending = 1) WHERE EXISTS (SELECT 1 FROM participant_event_lines l WHERE l.client_id = participants.client_id AND l.participant_id = participants.id AND l.pending = 1)`.execute(
    db,
  );

  // A participant's open pending lines, soonest first (their user data); the release run's due lines per client.
  await db.schema
    .createIndex('participant_event_lines_open_idx')
    .on('participant_event_lines')
    .columns(['client_id', 'participant_id', 'available_at'])
    .where(sql.ref('pending'), '=', 1)
    .where(sql.ref('released_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('participant_event_lines_due_idx')
    .on('participant_event_lines')
    .columns(['client_id', 'available_at'])
    .where(sql.ref('pending'), '=', 1)
    .where(sql.ref('released_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('participant_event_lines_due_idx').execute();
  await db.schema.dropIndex('participant_event_lines_open_idx').execute();
  for (const column of ['debt_points', 'reversed_points', 'returned_amount'])
    await db.schema.alterTable('participant_events').dropColumn(column).execute();
  for (const column of ['debt_points', 'reversed_points', 'released_at', 'participant_id'])
    await db.schema.alterTable('participant_event_lines').dropColumn(column).execute();
  await db.schema.alterTable('participants').dropColumn('pending_points').execute();
}
