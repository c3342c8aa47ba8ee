import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isPostgres } from '../../db/database.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from './tables.ts';

/** A database or a transaction: the outbox's writes run in the caller's. */
type Q = Kysely<Database>;

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type EventRow = Selectable<WebhookEventsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** The enabled endpoints of a client, with the kinds each takes (one indexed query, no cache: decision 084). */
export async function enabledEndpointKinds(q: Q, clientId: string): Promise<Array<{ id: string; event_kinds: string }>> {
  return (await selectEnabledEndpointKinds(q, clientId)).rows;
}

// Every points movement reads it: compiled to SQL once (decision 014); the rows are read each time.
const selectEnabledEndpointKinds = compiledOnce((q: Q, clientId: string) =>
  q.selectFrom('webhook_endpoints').select(['id', 'event_kinds']).where('client_id', '=', clientId).where('enabled', '=', 1),
);

export async function insertEvents(q: Q, events: ReadonlyArray<Insertable<WebhookEventsTable>>): Promise<void> {
  if (events.length > 0)
    await q
      .insertInto('webhook_events')
      .values([...events])
      .execute();
}

export async function insertDeliveries(q: Q, rows: ReadonlyArray<Insertable<WebhookDeliveriesTable>>): Promise<void> {
  if (rows.length > 0)
    await q
      .insertInto('webhook_deliveries')
      .values([...rows])
      .execute();
}

/**
 * Deliveries a worker may try now: pending, due, not claimed by a live worker, to an enabled
 * endpoint, and not behind an earlier pending delivery of the same participant to the same
 * endpoint (the order per participant: a later event waits while an earlier one is retried).
 */
export async function dueDeliveries(q: Q, at: string, limit: number): Promise<Array<{ id: string; attempts: number }>> {
  return q
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.attempts'])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<=', at)]))
    .where('e.enabled', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as p')
            .select('p.id')
            .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('p.username', '=', 'd.username')
            .where('p.status', '=', 'pending')
            .whereRef('p.event_id', '<', 'd.event_id'),
        ),
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.event_id')
    .limit(limit)
    .execute();
}

/**
 * Takes the deliveries for this worker until `until`, counting an attempt on each, in one
 * statement; returns those it took (another worker may have taken some first: a live claim, or
 * an outcome recorded since the look, fails the conditions).
 */
export async function claimDeliveries(q: Q, ids: readonly string[], holder: string, at: string, until: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await q
    .updateTable('webhook_deliveries')
    .set((eb) => ({ claimed_by: holder, claimed_until: until, attempts: eb('attempts', '+', 1), last_attempt_at: at }))
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** What claimed deliveries send, and where (attempts counts the one under way). */
export async function deliveriesWork(q: Q, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return q
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.event_id',
      'd.endpoint_id',
      'd.client_id',
      'd.attempts',
      'v.payload',
      'e.url',
      'e.secret_sealed',
      'e.previous_secret_sealed',
      'e.previous_secret_until',
    ])
    .where('d.id', 'in', [...ids])
    .orderBy('d.event_id')
    .execute();
}

export type DeliveryOutcome = Pick<
  DeliveryRow,
  'status' | 'next_attempt_at' | 'last_status' | 'last_error' | 'last_duration_ms' | 'delivered_at'
>;

/** The outcome of this worker's attempt; false if its claim was lost (it ran out and another worker took the row). */
export async function finishAttempt(q: Q, id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean> {
  const result = await q
    .updateTable('webhook_deliveries')
    .set({ ...outcome, claimed_by: null, claimed_until: null })
    .where('id', '=', id)
    .where('claimed_by', '=', holder)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A success ends the endpoint's failing streak. */
export async function endpointDelivered(q: Q, endpointId: string): Promise<void> {
  await q
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** A failure starts the endpoint's failing streak if none runs; returns since when it fails. */
export async function endpointFailed(q: Q, endpointId: string, at: string): Promise<string | undefined> {
  await q
    .updateTable('webhook_endpoints')
    .set({ failing_since: at })
    .where('id', '=', endpointId)
    .where('failing_since', 'is', null)
    .execute();
  const row = await q.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpointId).executeTakeFirst();
  return row?.failing_since ?? undefined;
}

/** Disables an enabled endpoint; false if it was not (another worker, or staff, got there first). */
export async function disableEndpointRow(q: Q, endpointId: string, at: string, reason: string): Promise<boolean> {
  const result = await q
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_at: at, disabled_reason: reason, updated_at: at })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function endpointById(q: Q, endpointId: string): Promise<EndpointRow | undefined> {
  return q.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirst();
}

/**
 * Holds the client's endpoints for the rest of the transaction, so that counting them and adding
 * one are a single step under concurrent requests: on PostgreSQL a transaction-scoped advisory lock
 * on the client (no row to lock while it has none); SQLite's transactions begin IMMEDIATE, one
 * writer at a time across processes, so nothing more is needed there.
 */
export async function lockEndpointsOfClient(trx: Q, clientId: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-endpoints:${clientId}`}, 0))`.execute(trx);
}

export async function countEndpointsOfClient(q: Q, clientId: string): Promise<number> {
  const row = await q
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEndpoint(q: Q, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  await q.insertInto('webhook_endpoints').values(row).execute();
}

export async function endpointOfClient(q: Q, clientId: string, endpointId: string): Promise<EndpointRow | undefined> {
  return q.selectFrom('webhook_endpoints').selectAll().where('client_id', '=', clientId).where('id', '=', endpointId).executeTakeFirst();
}

export async function endpointsOfClient(q: Q, clientId: string): Promise<EndpointRow[]> {
  return q.selectFrom('webhook_endpoints').selectAll().where('client_id', '=', clientId).orderBy('created_at').orderBy('id').execute();
}

export async function updateEndpointRow(
  q: Q,
  endpointId: string,
  changes: Partial<Omit<EndpointRow, 'id' | 'client_id' | 'created_at' | 'created_by'>>,
): Promise<void> {
  await q.updateTable('webhook_endpoints').set(changes).where('id', '=', endpointId).execute();
}

/** Removes the endpoint and its deliveries (the events stay: other endpoints may have them). */
export async function deleteEndpointRows(q: Q, endpointId: string): Promise<void> {
  await q.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpointId).execute();
  await q.deleteFrom('webhook_endpoints').where('id', '=', endpointId).execute();
}

const DELIVERY_VIEW_COLUMNS = [
  'd.id',
  'd.event_id',
  'd.endpoint_id',
  'd.client_id',
  'd.kind',
  'd.username',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.claimed_until',
  'd.last_attempt_at',
  'd.last_status',
  'd.last_error',
  'd.last_duration_ms',
  'd.delivered_at',
  'd.created_at',
  'v.payload',
] as const;

/** An endpoint's deliveries, newest first (ids sort by time), after the cursor's id. */
export async function deliveriesOfEndpoint(q: Q, endpointId: string, before: string | undefined, limit: number) {
  let select = q
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .select(DELIVERY_VIEW_COLUMNS)
    .where('d.endpoint_id', '=', endpointId);
  if (before !== undefined) select = select.where('d.id', '<', before);
  return select.orderBy('d.id', 'desc').limit(limit).execute();
}

export async function deliveryOfClient(q: Q, clientId: string, deliveryId: string) {
  return q
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .select(DELIVERY_VIEW_COLUMNS)
    .where('d.client_id', '=', clientId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/** Due again now, with a new schedule; false if a worker holds it right now (its claim is live). */
export async function requeueDelivery(q: Q, deliveryId: string, at: string): Promise<boolean> {
  const result = await q
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: at, claimed_by: null, claimed_until: null })
    .where('id', '=', deliveryId)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes up to `limit` deliveries sent or given up and made before `beforeDeliveryId` (ids sort
 * by time, so the primary key finds them), then up to `limit` events made before `beforeEventId`
 * that no delivery names any more. Returns how many of each went. Pending deliveries and their events stay.
 */
export async function pruneHistory(
  q: Q,
  beforeDeliveryId: string,
  beforeEventId: string,
  limit: number,
): Promise<{ deliveries: number; events: number }> {
  const deliveries = await q
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', '<', beforeDeliveryId)
        .where('status', '!=', 'pending')
        .orderBy('id')
        .limit(limit),
    )
    .executeTakeFirst();
  const events = await q
    .deleteFrom('webhook_events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_events as v')
        .select('v.id')
        .where('v.id', '<', beforeEventId)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'v.id'))),
        )
        .orderBy('v.id')
        .limit(limit),
    )
    .executeTakeFirst();
  return { deliveries: Number(deliveries.numDeletedRows), events: Number(events.numDeletedRows) };
}
