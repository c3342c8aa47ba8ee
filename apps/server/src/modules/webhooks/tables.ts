import type { ColumnType } from 'kysely';

/** A client's webhook endpoint (migration 039, docs/decisions/084). */
export interface WebhookEndpointsTable {
  /** `we_` then a random part. */
  id: string;
  client_id: string;
  /** Where the deliveries are POSTed; https in production, never to an inward address. */
  url: string;
  description: ColumnType<string, string | undefined, string>;
  /** JSON array of event kinds, or ["*"]: every kind, also those added later. */
  event_kinds: string;
  /** 1 enabled, 0 disabled (by staff, the API, or after failing for days). */
  enabled: ColumnType<number, number | undefined, number>;
  /** The signing secret (`whsec_…`) sealed with the installation's key (sso/secret-box.ts). */
  secret_sealed: string;
  /** The secret before the last rotation, still signing until previous_secret_until. */
  previous_secret_sealed: string | null;
  previous_secret_until: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** Since when every attempt failed (the first failure after the last success); null while it delivers. */
  failing_since: string | null;
}

/** An event told to a client's endpoints: the outbox row, written with the change (migration 039). */
export interface WebhookEventsTable {
  /** `msg_` then a time-ordered id; the `webhook-id` of every delivery of it. */
  id: string;
  client_id: string;
  /** e.g. points.credited (WEBHOOK_EVENT_KINDS). */
  kind: string;
  /** The participant it is about: deliveries of one participant to one endpoint go in order. */
  username: string | null;
  /** The exact JSON body sent: { type, timestamp, data }. */
  payload: string;
  created_at: string;
}

/** pending: to try at next_attempt_at (claimed_until set while a worker sends it) · delivered · failed: given up. */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to one endpoint (migration 039). */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  client_id: string;
  username: string | null;
  kind: string;
  status: WebhookDeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  /** The worker sending it, until claimed_until; another leaves it alone until then (then it was killed: try again). */
  claimed_by: string | null;
  claimed_until: string | null;
  last_attempt_at: string | null;
  /** The receiver's HTTP status of the last attempt; null when none came (timeout, refused). */
  last_status: number | null;
  /** Why the last attempt failed, short, never a secret. */
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: string | null;
  created_at: string;
}
