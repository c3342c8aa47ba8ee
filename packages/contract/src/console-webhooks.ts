import { z } from 'zod';

/**
 * Webhooks (issue 29 §3, docs/decisions/084): a client's endpoints, the events told to them and
 * their deliveries, as the console, `rewards webhooks` and the program API manage them. Deliveries
 * follow the Standard Webhooks specification (headers webhook-id, webhook-timestamp,
 * webhook-signature; the body `{ type, timestamp, data }`).
 */
const seg = encodeURIComponent;

export const WEBHOOK_EVENT_KINDS = [
  'participant.created',
  'participant.updated',
  'participant.activated',
  'participant.status_changed',
  'points.credited',
  'points.debited',
  'points.reversed',
  'points.expired',
  'points.pending',
  'points.released',
  'code.redeemed',
  'order.placed',
  'import.finished',
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The console's paths, under /api/console/v1. */
export const consoleWebhooksPaths = {
  /** GET: the client's endpoints (WebhookEndpointList); POST: add one (CreateWebhookEndpointRequest → WebhookSecretReply, a fresh second factor). */
  endpoints: (clientId: string) => `/clients/${seg(clientId)}/webhooks`,
  /**
   * PATCH: change the URL, kinds, description, or enable/disable (UpdateWebhookEndpointRequest → WebhookEndpoint);
   * DELETE: remove it and its deliveries (DeleteWebhookEndpointRequest → 204).
   */
  endpoint: (clientId: string, endpointId: string) => `/clients/${seg(clientId)}/webhooks/${seg(endpointId)}`,
  /** POST: a new secret, the old one still signing for overlapHours (RotateWebhookSecretRequest → WebhookSecretReply, a fresh second factor). */
  rotateSecret: (clientId: string, endpointId: string) => `/clients/${seg(clientId)}/webhooks/${seg(endpointId)}/rotate-secret`,
  /** GET ?cursor=: the endpoint's deliveries, newest first (WebhookDeliveryList). */
  deliveries: (clientId: string, endpointId: string) => `/clients/${seg(clientId)}/webhooks/${seg(endpointId)}/deliveries`,
  /** POST: send a delivery again now, with the same webhook-id (ResendWebhookDeliveryRequest → WebhookDelivery). */
  resend: (clientId: string, deliveryId: string) => `/clients/${seg(clientId)}/webhooks/deliveries/${seg(deliveryId)}/resend`,
} as const;

/** The program API's paths, under /api/program/v1 (a key with scope webhooks:manage). */
export const programWebhooksPaths = {
  /** GET: the key's client's endpoints; POST: add one (ProgramCreateWebhookRequest → WebhookSecretReply). */
  endpoints: '/webhooks',
  /** PATCH: change it (ProgramUpdateWebhookRequest); DELETE: remove it and its deliveries. */
  endpoint: (endpointId: string) => `/webhooks/${seg(endpointId)}`,
  /** POST: a new secret (ProgramRotateWebhookSecretRequest → WebhookSecretReply). */
  rotateSecret: (endpointId: string) => `/webhooks/${seg(endpointId)}/rotate-secret`,
} as const;

export const MAX_WEBHOOK_URL = 2000;
export const MAX_WEBHOOK_DESCRIPTION = 200;
/** The longest overlap of a rotation: a week. */
export const MAX_ROTATION_OVERLAP_HOURS = 168;
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;
/**
 * Endpoints one client may have (each event is delivered to each endpoint that takes its kind, so
 * endpoints multiply the outbox's work); a receiver that needs more fans out on its side.
 */
export const MAX_WEBHOOK_ENDPOINTS = 20;

const Reason = z.string().trim().min(3).max(500);
const Url = z.string().trim().min(1).max(MAX_WEBHOOK_URL);
const Description = z.string().trim().max(MAX_WEBHOOK_DESCRIPTION);
/** Kinds an endpoint takes: some of WEBHOOK_EVENT_KINDS, or ["*"] for every kind (also those added later). */
export const WebhookEventSelection = z
  .array(z.union([z.enum(WEBHOOK_EVENT_KINDS), z.literal('*')]))
  .min(1)
  .max(WEBHOOK_EVENT_KINDS.length + 1)
  .transform((kinds) => (kinds.includes('*') ? ['*' as const] : [...new Set(kinds)]));
export type WebhookEventSelection = z.infer<typeof WebhookEventSelection>;

export const WebhookClientParams = z.object({ clientId: z.string().min(1).max(64) });
export const WebhookEndpointParams = z.object({ clientId: z.string().min(1).max(64), endpointId: z.string().min(1).max(64) });
export const WebhookDeliveryParams = z.object({ clientId: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  /** Kinds it takes, or ["*"]. */
  events: z.array(z.string()),
  enabled: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  /** Since when every attempt has failed; null while it delivers. After 3 days of failing it is disabled. */
  failingSince: z.string().nullable(),
  /** During a rotation's overlap: until when the previous secret signs too; else null. */
  previousSecretUntil: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** The endpoint and its signing secret: the only time the secret is shown. */
export const WebhookSecretReply = z.object({ endpoint: WebhookEndpoint, secret: z.string() });
export type WebhookSecretReply = z.infer<typeof WebhookSecretReply>;

export const CreateWebhookEndpointRequest = z.object({
  url: Url,
  events: WebhookEventSelection,
  description: Description.optional(),
  reason: Reason,
});
export type CreateWebhookEndpointRequest = z.input<typeof CreateWebhookEndpointRequest>;

export const UpdateWebhookEndpointRequest = z
  .object({
    url: Url.optional(),
    events: WebhookEventSelection.optional(),
    description: Description.optional(),
    enabled: z.boolean().optional(),
    reason: Reason,
  })
  .refine((r) => r.url !== undefined || r.events !== undefined || r.description !== undefined || r.enabled !== undefined, {
    message: 'nothing to change',
  });
export type UpdateWebhookEndpointRequest = z.input<typeof UpdateWebhookEndpointRequest>;

export const RotateWebhookSecretRequest = z.object({
  /** How long the previous secret keeps signing beside the new one; 0 ends it at once. */
  overlapHours: z.number().int().min(0).max(MAX_ROTATION_OVERLAP_HOURS).default(DEFAULT_ROTATION_OVERLAP_HOURS),
  reason: Reason,
});
export type RotateWebhookSecretRequest = z.input<typeof RotateWebhookSecretRequest>;

export const DeleteWebhookEndpointRequest = z.object({ reason: Reason });
export type DeleteWebhookEndpointRequest = z.input<typeof DeleteWebhookEndpointRequest>;

export const ResendWebhookDeliveryRequest = z.object({ reason: Reason.optional() });

/** The program API's requests: the same, without the reason (the key's name is the actor in the audit). */
export const ProgramCreateWebhookRequest = CreateWebhookEndpointRequest.omit({ reason: true });
export const ProgramUpdateWebhookRequest = z
  .object({
    url: Url.optional(),
    events: WebhookEventSelection.optional(),
    description: Description.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((r) => r.url !== undefined || r.events !== undefined || r.description !== undefined || r.enabled !== undefined, {
    message: 'nothing to change',
  });
export const ProgramRotateWebhookSecretRequest = RotateWebhookSecretRequest.omit({ reason: true });
export const ProgramWebhookParams = z.object({ endpointId: z.string().min(1).max(64) });

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);

export const WebhookDelivery = z.object({
  id: z.string(),
  /** The event's id: the webhook-id header of every attempt. */
  eventId: z.string(),
  kind: z.string(),
  username: z.string().nullable(),
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  /** When it is tried next (pending only). */
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** The receiver's HTTP status of the last attempt; null when none came. */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().int().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  /** The body sent, as JSON text. */
  payload: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({ cursor: z.string().max(200).optional() });
export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery), nextCursor: z.string().nullable() });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/*
 * The payloads (the body of each delivery), as the API document's `webhooks` shows them
 * (decision 084). Every body is `{ type, timestamp, data }`; `data` names the client, the
 * participant's username where there is one, and when it happened (occurredAt). Receivers should
 * ignore fields they do not know: fields may be added, never renamed or removed.
 */
const base = {
  client: z.string().describe("The client (program) id: the same for every event of an endpoint's client"),
  occurredAt: z.string().describe('When it happened (ISO 8601): the ledger entry’s date for points'),
};
const participantBase = { ...base, username: z.string().describe('The participant, by username') };
const ledgerBase = {
  ...participantBase,
  points: z.number().int().describe('The movement, signed: positive credits, negative debits'),
  balanceAfter: z.number().int().describe("The participant's balance right after it"),
  entryId: z.string().describe('The ledger entry’s id (the statement shows it)'),
};
const ParticipantView = z
  .looseObject({})
  .describe('The participant as GET /participants/{username} of the program API shows it (changes through the program API only)');

export const WEBHOOK_PAYLOAD_DATA = {
  'participant.created': z.looseObject({
    ...participantBase,
    status: z.string().describe('pending (to activate), active or inactive').optional(),
    participant: ParticipantView.optional(),
  }),
  'participant.updated': z.looseObject({
    ...participantBase,
    changed: z.array(z.string()).describe('The names of the fields that changed (never their values)'),
    participant: ParticipantView.optional(),
  }),
  'participant.activated': z.looseObject({
    ...participantBase,
    status: z.literal('active'),
    previousUsername: z.string().optional().describe('The username before the participant chose another while activating'),
  }),
  'participant.status_changed': z.looseObject({ ...participantBase, from: z.string(), to: z.string() }),
  'points.credited': z.looseObject({
    ...ledgerBase,
    source: z.string().optional().describe('adjustment (console or command), award (command); absent for program API postings'),
    externalId: z.string().optional().describe('The program API posting’s externalId'),
  }),
  'points.debited': z.looseObject({
    ...ledgerBase,
    source: z.string().optional().describe('adjustment (console or command); absent for program API postings'),
    externalId: z.string().optional().describe('The program API posting’s externalId'),
  }),
  'points.reversed': z.looseObject({
    ...ledgerBase,
    externalId: z.string().optional().describe('The reversed posting’s externalId (a program API reversal)'),
    reversedEntryId: z.string().optional().describe('The reversed posting’s entry (a program API reversal)'),
    entryId: z.string().nullable().describe('The ledger entry’s id; null when a return took back only pending points'),
    eventId: z.string().optional().describe('The return event’s id (a return)'),
    originalEventId: z.string().optional().describe('The event the return took back from (a return)'),
    pendingPoints: z.number().int().optional().describe('What the return took back of the pending points (a return)'),
    debtPoints: z.number().int().optional().describe('What the return could not take back, the balance being short: a debt (a return)'),
  }),
  'points.expired': z.looseObject({ ...ledgerBase, asOf: z.string().describe('The day of the expiry run (the client’s time zone)') }),
  'points.pending': z.looseObject({
    ...participantBase,
    eventId: z.string().describe('The event that earned them (POST events)'),
    eventType: z.string(),
    points: z.number().int().describe('The points held pending'),
    pendingAfter: z.number().int().describe("The participant's pending total right after"),
    lines: z
      .array(
        z.looseObject({
          ruleId: z.string(),
          version: z.number().int(),
          points: z.number().int(),
          availableAt: z.string().nullable(),
          availableOn: z.string().nullable(),
        }),
      )
      .describe(
        'The pending lines: the rule, its points, when they become available (availableOn: the client’s day the release run credits them)',
      ),
  }),
  'points.released': z.looseObject({
    ...ledgerBase,
    eventId: z.string().describe('The event whose pending line was released'),
    ruleId: z.string(),
    pendingAfter: z.number().int().describe("The participant's pending total right after"),
  }),
  'code.redeemed': z.looseObject({ ...ledgerBase, codeHint: z.string().describe('The code’s last four characters') }),
  'order.placed': z.looseObject({
    ...ledgerBase,
    orderId: z.string().describe('The catalog’s order id'),
    partnerId: z.string().describe('The catalog partner'),
    description: z.string(),
  }),
  'import.finished': z.looseObject({
    ...base,
    jobId: z.string(),
    importKind: z.enum(['points', 'participants', 'events']),
    status: z.enum(['done', 'failed']),
    fileName: z.string(),
    lines: z.number().int().optional().describe('Data lines read (done)'),
    counts: z.looseObject({}).optional().describe('added, updated, unchanged, rejected… as the console shows them (done)'),
    error: z.string().optional().describe('Why it failed (failed)'),
  }),
} satisfies Record<WebhookEventKind, z.ZodType>;

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventKind, string> = {
  'participant.created': 'A participant was created (the console or the command, an import line, the program API).',
  'participant.updated': 'A participant’s details changed; `changed` names the fields.',
  'participant.activated': 'A participant activated their account in the portal.',
  'participant.status_changed': 'A participant’s status changed (active, inactive), by staff, the command or the program API.',
  'points.credited': 'Points were credited by an adjustment, an award, or a program API posting.',
  'points.debited': 'Points were debited by an adjustment or a program API posting.',
  'points.reversed': 'A program API posting was reversed, in all or in part; or a return event took back what its original event earned.',
  'points.expired': 'Points expired: one event per participant per expiry run.',
  'points.pending': 'An event earned points held pending (a rule with pendingDays): not spendable until released.',
  'points.released': 'Pending points became spendable: the daily release run credited them, one event per released event line.',
  'code.redeemed': 'A participant redeemed an on-the-spot code.',
  'order.placed': 'A catalog partner debited points for an order.',
  'import.finished': 'A console import job ended (done or failed): one event for the whole file, naming no participant.',
};

/** The body of a delivery of this kind. */
export function webhookPayload<K extends WebhookEventKind>(kind: K) {
  return z.object({
    type: z.literal(kind),
    timestamp: z.string().describe('When the event was recorded (ISO 8601)'),
    data: WEBHOOK_PAYLOAD_DATA[kind],
  });
}
