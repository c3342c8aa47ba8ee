/**
 * Webhooks (issue 29 §3, docs/decisions/084): what other modules call. tellWebhooks records an
 * event in the caller's transaction; the delivery worker (delivery.ts) sends it after the commit.
 */
export {
  WEBHOOK_EVENT_KINDS,
  tellPointsMoved,
  tellWebhooks,
  tellWebhooksKinds,
  tellWebhooksMany,
  type PointsSource,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookKindItems,
} from './events.ts';
