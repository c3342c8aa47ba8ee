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

/** A participant's events, newest first, after the (occurredAt, id) of a page's last one (the index participant_events_participant_idx). */
export async function listParticipantEvents(
  db: Q,
  clientId: string,
  participantId: string,
  after: { occurredAt: string; id: string } | undefined,
  limit: number,
): Promise<ParticipantEventsTable[]> {
  let query = db.selectFrom('participant_events').selectAll().where('client_id', '=', clientId).where('participant_id', '=', participantId);
  if (after)
    query = query.where((eb) =>
      eb.or([eb('occurred_at', '<', after.occurredAt), eb.and([eb('occurred_at', '=', after.occurredAt), eb('id', '<', after.id)])]),
    );
  return query.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The lines of several events of one client, in each event's order. */
export async function linesOfEvents(db: Q, clientId: string, eventIds: readonly string[]): Promise<ParticipantEventLinesTable[]> {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('participant_event_lines')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('event_id', 'in', [...eventIds])
    .orderBy('event_id')
    .orderBy('line')
    .execute();
}
