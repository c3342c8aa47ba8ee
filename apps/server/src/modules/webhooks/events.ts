import type { Kysely, Transaction } from 'kysely';
import type { WebhookEventKind } from '@rewards/contract/console-webhooks';
import type { Database } from '../../db/schema.ts';
import { deliveryId, eventId } from './ids.ts';
import { enabledEndpointKinds, insertDeliveries, insertEvents } from './store.ts';

/** The kinds, one list for the server, the console and the API document (packages/contract). */
export { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '@rewards/contract/console-webhooks';

/** An endpoint's kinds: a list of WEBHOOK_EVENT_KINDS, or ["*"] for every kind (also those added later). */
export const ALL_KINDS = '*';

export function takesKind(eventKinds: string, kind: string): boolean {
  try {
    const kinds: unknown = JSON.parse(eventKinds);
    return Array.isArray(kinds) && (kinds.includes(ALL_KINDS) || kinds.includes(kind));
  } catch {
    return false;
  }
}

/** Wakes this process's delivery workers; a told event is only visible once its transaction commits. */
const wakeListeners = new Set<() => void>();

export function onWebhookTold(listener: () => void): () => void {
  wakeListeners.add(listener);
  return () => wakeListeners.delete(listener);
}

export function wakeWebhookWorkers(): void {
  for (const listener of wakeListeners) listener();
}

export interface WebhookEvent {
  clientId: string;
  kind: WebhookEventKind;
  /** The participant it is about; deliveries of one participant to one endpoint go in order. */
  username?: string | undefined;
  /** The event's facts; `client` is added, and `occurredAt` (now) unless given. */
  data: Record<string, unknown>;
}

/**
 * Records an event in the caller's transaction (the outbox, decision 084): told to every enabled
 * endpoint of the client subscribed to the kind, after the commit; never if the transaction
 * rolls back. A client without such an endpoint gets nothing written (one indexed read).
 * The body sent is fixed here: `{ type, timestamp, data: { client, ...data } }`.
 */
export async function tellWebhooks(
  trx: Transaction<Database> | Kysely<Database>,
  event: WebhookEvent,
  now: Date = new Date(),
): Promise<void> {
  const { clientId, kind, username, data } = event;
  await tellWebhooksMany(trx, clientId, kind, async () => [{ username, data }], now);
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound parameters. */
const ROWS_PER_INSERT = 500;

/** Events of one kind for tellWebhooksKinds: `items` is only called when an endpoint takes the kind. */
export interface WebhookKindItems {
  kind: WebhookEventKind;
  items: () => Promise<ReadonlyArray<{ username?: string | undefined; data: Record<string, unknown> }>>;
}

/**
 * Many events of one kind in the caller's transaction (a run's, e.g. the expiry's one per
 * participant): one look for the client's endpoints, then the events and their deliveries in a
 * few INSERTs. `items` is only called when an endpoint takes the kind, so a run whose client has
 * none does no more work than one read.
 */
export async function tellWebhooksMany(
  trx: Transaction<Database> | Kysely<Database>,
  clientId: string,
  kind: WebhookEventKind,
  items: WebhookKindItems['items'],
  now: Date = new Date(),
): Promise<void> {
  await tellWebhooksKinds(trx, clientId, [{ kind, items }], now);
}

/** As tellWebhooksMany, for events of several kinds told by one posting (an event's credit and its pending points): one look for the endpoints. */
export async function tellWebhooksKinds(
  trx: Transaction<Database> | Kysely<Database>,
  clientId: string,
  told: readonly WebhookKindItems[],
  now: Date = new Date(),
): Promise<void> {
  if (told.length === 0) return;
  const enabled = await enabledEndpointKinds(trx, clientId);
  if (enabled.length === 0) return;
  let written = false;
  for (const { kind, items } of told) {
    const endpoints = enabled.filter((e) => takesKind(e.event_kinds, kind));
    if (endpoints.length === 0) continue;
    const list = await items();
    if (list.length === 0) continue;
    await writeEvents(trx, clientId, kind, list, endpoints, now);
    written = true;
  }
  // Visible once the caller commits, a moment from now: the workers look shortly after, and once
  // more a second later for a slower transaction; their poll is the last net.
  if (written) for (const delay of [20, 1_000]) setTimeout(wakeWebhookWorkers, delay).unref();
}

async function writeEvents(
  trx: Transaction<Database> | Kysely<Database>,
  clientId: string,
  kind: WebhookEventKind,
  list: ReadonlyArray<{ username?: string | undefined; data: Record<string, unknown> }>,
  endpoints: ReadonlyArray<{ id: string }>,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const events = list.map((item) => {
    const username = item.username ?? null;
    const payload = JSON.stringify({
      type: kind,
      timestamp: at,
      data: { client: clientId, ...(username !== null ? { username } : {}), occurredAt: at, ...item.data },
    });
    return { id: eventId(now.getTime()), client_id: clientId, kind, username, payload, created_at: at };
  });
  for (let from = 0; from < events.length; from += ROWS_PER_INSERT) await insertEvents(trx, events.slice(from, from + ROWS_PER_INSERT));
  const deliveries = events.flatMap((event) =>
    endpoints.map((endpoint) => ({
      id: deliveryId(now.getTime()),
      event_id: event.id,
      endpoint_id: endpoint.id,
      client_id: clientId,
      username: event.username,
      kind,
      status: 'pending' as const,
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
    })),
  );
  for (let from = 0; from < deliveries.length; from += ROWS_PER_INSERT)
    await insertDeliveries(trx, deliveries.slice(from, from + ROWS_PER_INSERT));
}

type Trx = Transaction<Database> | Kysely<Database>;

/** Where a points movement came from, in points.credited / points.debited. */
export type PointsSource = 'adjustment' | 'award' | 'import' | 'program-api' | 'code' | 'order' | 'expiry';

/**
 * A credit (points > 0: points.credited) or a debit (points < 0: points.debited) of one
 * participant, told in the transaction that posted it. The payloads are documented in the API
 * document's webhooks (http/api-document.ts, webhook-payloads.ts).
 */
export function tellPointsMoved(
  trx: Trx,
  m: {
    clientId: string;
    username: string;
    points: number;
    balanceAfter: number;
    entryId: string;
    occurredAt: string;
    source: PointsSource;
  },
  now?: Date,
): Promise<void> {
  const { clientId, username, ...data } = m;
  return tellWebhooks(trx, { clientId, kind: m.points < 0 ? 'points.debited' : 'points.credited', username, data }, now);
}
