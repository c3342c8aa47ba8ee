import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ClientEventTypesTable } from './tables.ts';

/** SQL of the declared event types (migration 044, decision 100): the client_event_types table only. */

type Q = Kysely<Database>;

export async function findEventType(db: Q, clientId: string, name: string): Promise<ClientEventTypesTable | undefined> {
  return db.selectFrom('client_event_types').selectAll().where('client_id', '=', clientId).where('name', '=', name).executeTakeFirst();
}

export async function eventTypesOfClient(db: Q, clientId: string): Promise<ClientEventTypesTable[]> {
  return db.selectFrom('client_event_types').selectAll().where('client_id', '=', clientId).orderBy('name').execute();
}

/** Adds the row; false when the client has one under that name already (nothing written). */
export async function insertEventType(db: Q, row: ClientEventTypesTable): Promise<boolean> {
  const result = await db
    .insertInto('client_event_types')
    .values(row)
    .onConflict((oc) => oc.columns(['client_id', 'name']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Declares a retired type again (its retirement cleared); false when it is not retired (another change came first). */
export async function redeclareEventType(
  db: Q,
  clientId: string,
  name: string,
  change: { description: string; at: string; by: string },
): Promise<boolean> {
  const result = await db
    .updateTable('client_event_types')
    .set({
      description: change.description,
      declared_at: change.at,
      declared_by: change.by,
      retired_at: null,
      retired_by: null,
      retired_reason: null,
    })
    .where('client_id', '=', clientId)
    .where('name', '=', name)
    .where('retired_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Retires a type in use; false when there is no such row or it is retired already. */
export async function retireEventTypeRow(
  db: Q,
  clientId: string,
  name: string,
  change: { at: string; by: string; reason: string },
): Promise<boolean> {
  const result = await db
    .updateTable('client_event_types')
    .set({ retired_at: change.at, retired_by: change.by, retired_reason: change.reason })
    .where('client_id', '=', clientId)
    .where('name', '=', name)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
