import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';

/** The events' own tables (migration 042, decision 097): the events kept, once per client and id, and their lines. */

type Q = Kysely<Database>;

export async function findEvent(db: Q, clientId: string, id: string): Promise<ParticipantEventsTable | undefined> {
  return db.selectFrom('participant_events').selectAll().where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst();
}

export async function linesOfEvent(db: Q, clientId: string, eventId: string): Promise<ParticipantEventLinesTable[]> {
  return db
    .selectFrom('participant_event_lines')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('event_id', '=', eventId)
    .orderBy('line')
    .execute();
}

/**
 * Keeps the event: its primary key takes the id, so a concurrent twin that read no event fails
 * here (on PostgreSQL after waiting for this one's commit) and its transaction is undone.
 */
export async function insertEvent(trx: Transaction<Database>, row: ParticipantEventsTable): Promise<void> {
  await trx.insertInto('participant_events').values(row).execute();
}

export async function insertLines(trx: Transaction<Database>, rows: readonly ParticipantEventLinesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('participant_event_lines')
    .values([...rows])
    .execute();
}
