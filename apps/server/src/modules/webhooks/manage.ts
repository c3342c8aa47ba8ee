import type { WebhookDelivery, WebhookEndpoint } from '@rewards/contract/console-webhooks';
import { DEFAULT_ROTATION_OVERLAP_HOURS, MAX_WEBHOOK_ENDPOINTS } from '@rewards/contract/console-webhooks';
import { ErrorCode } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.ts';
import { recordAudit, type AuditActorKind } from '../audit/service.ts';
import { checkUrlForm, resolveTarget, systemResolver, type AddressPolicy, type Resolver } from './address.ts';
import { ALL_KINDS, wakeWebhookWorkers } from './events.ts';
import { endpointId as newEndpointId } from './ids.ts';
import { newSigningSecret, sealSigningSecret } from './secrets.ts';
import {
  countEndpointsOfClient,
  deleteEndpointRows,
  deliveriesOfEndpoint,
  deliveryOfClient,
  endpointOfClient,
  endpointsOfClient,
  insertEndpoint,
  lockEndpointsOfClient,
  requeueDelivery,
  updateEndpointRow,
  type EndpointRow,
} from './store.ts';

/**
 * Managing a client's webhook endpoints (decision 084): one service for the console, the
 * `rewards webhooks` command and the program API. Every change is audited with who made it and
 * why; a new endpoint and a rotation answer the signing secret, the only time it leaves the server.
 */

export interface WebhookSettings {
  /** Where the installation's sealing key lives (config.catalog.dataDir). */
  dataDir: string;
  policy: AddressPolicy;
  /** DNS (tests); default node:dns lookup. */
  resolver?: Resolver;
}

export interface WebhookActor {
  /** A staff e-mail, the operator, or the API key's name. */
  name: string;
  kind: AuditActorKind;
  origin?: string | null;
}

export const webhookErrors = {
  urlRefused: (problem: string) =>
    new ApiError(400, ErrorCode.webhookUrlRefused, 'webhooks.error.urlRefused', `Refused webhook URL: ${problem}`),
  inFlight: () =>
    new ApiError(
      409,
      ErrorCode.webhookDeliveryInFlight,
      'webhooks.error.inFlight',
      'The delivery is being sent right now; look again in a moment',
    ),
  endpointDisabled: () =>
    new ApiError(409, ErrorCode.webhookEndpointDisabled, 'webhooks.error.endpointDisabled', 'The endpoint is disabled: enable it first'),
  endpointLimit: () =>
    new ApiError(
      409,
      ErrorCode.webhookEndpointLimit,
      'webhooks.error.endpointLimit',
      `The client has ${MAX_WEBHOOK_ENDPOINTS} endpoints, as many as a client may have: delete one first`,
    ),
};

/** The endpoint as the console, the command and the API show it: never its secret. */
export function endpointView(row: EndpointRow, now: Date = new Date()): WebhookEndpoint {
  const overlap = row.previous_secret_until !== null && row.previous_secret_until > now.toISOString();
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: parseKinds(row.event_kinds),
    enabled: row.enabled === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    previousSecretUntil: overlap ? row.previous_secret_until : null,
  };
}

function parseKinds(text: string): string[] {
  try {
    const kinds: unknown = JSON.parse(text);
    return Array.isArray(kinds) ? kinds.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** The URL's form and, after DNS, every address it reaches: refused with 400 and why (decision 084). */
export async function checkWebhookUrl(settings: WebhookSettings, raw: string): Promise<string> {
  const form = checkUrlForm(raw.trim(), settings.policy);
  if (!form.ok) throw webhookErrors.urlRefused(form.problem);
  const resolved = await resolveTarget(form.url, settings.policy, settings.resolver ?? systemResolver);
  if (!resolved.ok) throw webhookErrors.urlRefused(resolved.problem);
  return form.url.toString();
}

async function audit(
  db: Db,
  actor: WebhookActor,
  clientId: string,
  action: string,
  subject: string,
  details: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await recordAudit(
    db,
    { clientId, actor: actor.name, actorKind: actor.kind, action, subject, details, origin: actor.origin ?? null },
    now,
  );
}

export interface CreateEndpointInput {
  clientId: string;
  url: string;
  /** Kinds (already checked against WEBHOOK_EVENT_KINDS by the caller's schema), or ["*"]. */
  events: readonly string[];
  description?: string | undefined;
  reason?: string | undefined;
}

export async function createEndpoint(
  db: Db,
  settings: WebhookSettings,
  actor: WebhookActor,
  input: CreateEndpointInput,
  now: Date = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkWebhookUrl(settings, input.url);
  const id = newEndpointId();
  const secret = newSigningSecret();
  const sealed = await sealSigningSecret(settings.dataDir, id, secret);
  const at = now.toISOString();
  const events = input.events.includes(ALL_KINDS) ? [ALL_KINDS] : [...new Set(input.events)];
  const row: EndpointRow = {
    id,
    client_id: input.clientId,
    url,
    description: input.description?.trim() ?? '',
    event_kinds: JSON.stringify(events),
    enabled: 1,
    secret_sealed: sealed,
    previous_secret_sealed: null,
    previous_secret_until: null,
    created_by: actor.name,
    created_at: at,
    updated_at: at,
    disabled_at: null,
    disabled_reason: null,
    failing_since: null,
  };
  await db.transaction().execute(async (trx) => {
    // Counted and added under the client's lock: a hundred requests at once still make no more than the cap.
    await lockEndpointsOfClient(trx, input.clientId);
    if ((await countEndpointsOfClient(trx, input.clientId)) >= MAX_WEBHOOK_ENDPOINTS) throw webhookErrors.endpointLimit();
    await insertEndpoint(trx, row);
    await audit(trx, actor, input.clientId, 'webhooks.endpoint.create', id, { url, events, reason: input.reason ?? null }, now);
  });
  return { endpoint: endpointView(row, now), secret };
}

export async function listEndpoints(db: Db, clientId: string, now: Date = new Date()): Promise<WebhookEndpoint[]> {
  return (await endpointsOfClient(db, clientId)).map((row) => endpointView(row, now));
}

async function endpointOrNotFound(db: Db, clientId: string, endpointId: string): Promise<EndpointRow> {
  const row = await endpointOfClient(db, clientId, endpointId);
  if (!row) throw errors.notFound();
  return row;
}

export async function getEndpoint(db: Db, clientId: string, endpointId: string, now: Date = new Date()): Promise<WebhookEndpoint> {
  return endpointView(await endpointOrNotFound(db, clientId, endpointId), now);
}

export interface UpdateEndpointInput {
  clientId: string;
  endpointId: string;
  url?: string | undefined;
  events?: readonly string[] | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  reason?: string | undefined;
}

/** Changes what is given; enabling clears the failing streak (a fresh start), disabling records when and why. */
export async function updateEndpoint(
  db: Db,
  settings: WebhookSettings,
  actor: WebhookActor,
  input: UpdateEndpointInput,
  now: Date = new Date(),
): Promise<WebhookEndpoint> {
  const current = await endpointOrNotFound(db, input.clientId, input.endpointId);
  const at = now.toISOString();
  const changes: Partial<EndpointRow> = {};
  if (input.url !== undefined) {
    const url = await checkWebhookUrl(settings, input.url);
    if (url !== current.url) changes.url = url;
  }
  if (input.events !== undefined) {
    const events = JSON.stringify(input.events.includes(ALL_KINDS) ? [ALL_KINDS] : [...new Set(input.events)]);
    if (events !== current.event_kinds) changes.event_kinds = events;
  }
  if (input.description !== undefined && input.description.trim() !== current.description) changes.description = input.description.trim();
  if (input.enabled !== undefined && input.enabled !== (current.enabled === 1)) {
    changes.enabled = input.enabled ? 1 : 0;
    changes.disabled_at = input.enabled ? null : at;
    changes.disabled_reason = input.enabled ? null : (input.reason ?? `disabled by ${actor.name}`);
    if (input.enabled) changes.failing_since = null;
  }
  const changed = Object.keys(changes);
  if (changed.length === 0) return endpointView(current, now);
  const action =
    input.enabled === undefined || !changed.includes('enabled')
      ? 'webhooks.endpoint.update'
      : input.enabled
        ? 'webhooks.endpoint.enable'
        : 'webhooks.endpoint.disable';
  await db.transaction().execute(async (trx) => {
    await updateEndpointRow(trx, current.id, { ...changes, updated_at: at });
    await audit(
      trx,
      actor,
      input.clientId,
      action,
      current.id,
      { changed, url: changes.url ?? undefined, reason: input.reason ?? null },
      now,
    );
  });
  // Enabled again: its held deliveries are due.
  if (input.enabled) wakeWebhookWorkers();
  return endpointView({ ...current, ...changes, updated_at: at }, now);
}

/** A new secret; the previous one signs beside it for overlapHours (0: not at all), so receivers can switch without a gap. */
export async function rotateSecret(
  db: Db,
  settings: WebhookSettings,
  actor: WebhookActor,
  input: { clientId: string; endpointId: string; overlapHours?: number | undefined; reason?: string | undefined },
  now: Date = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const current = await endpointOrNotFound(db, input.clientId, input.endpointId);
  const overlapHours = input.overlapHours ?? DEFAULT_ROTATION_OVERLAP_HOURS;
  const secret = newSigningSecret();
  const sealed = await sealSigningSecret(settings.dataDir, current.id, secret);
  const at = now.toISOString();
  const until = overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000).toISOString() : null;
  const changes = {
    secret_sealed: sealed,
    previous_secret_sealed: until ? current.secret_sealed : null,
    previous_secret_until: until,
    updated_at: at,
  };
  await db.transaction().execute(async (trx) => {
    await updateEndpointRow(trx, current.id, changes);
    await audit(
      trx,
      actor,
      input.clientId,
      'webhooks.endpoint.rotate-secret',
      current.id,
      { overlapHours, reason: input.reason ?? null },
      now,
    );
  });
  return { endpoint: endpointView({ ...current, ...changes }, now), secret };
}

export async function deleteEndpoint(
  db: Db,
  actor: WebhookActor,
  input: { clientId: string; endpointId: string; reason?: string | undefined },
  now: Date = new Date(),
): Promise<void> {
  const current = await endpointOrNotFound(db, input.clientId, input.endpointId);
  await db.transaction().execute(async (trx) => {
    await deleteEndpointRows(trx, current.id);
    await audit(
      trx,
      actor,
      input.clientId,
      'webhooks.endpoint.delete',
      current.id,
      { url: current.url, reason: input.reason ?? null },
      now,
    );
  });
}

type DeliveryViewRow = NonNullable<Awaited<ReturnType<typeof deliveryOfClient>>>;

function deliveryView(row: DeliveryViewRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    kind: row.kind,
    username: row.username,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastDurationMs: row.last_duration_ms,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
    payload: row.payload,
  };
}

export const DELIVERY_PAGE = 50;

export async function listDeliveries(
  db: Db,
  input: { clientId: string; endpointId: string; cursor?: string | undefined; limit?: number },
): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null }> {
  const before = input.cursor === undefined ? undefined : decodePageCursor(input.cursor, ['string'] as const)[0];
  await endpointOrNotFound(db, input.clientId, input.endpointId);
  const limit = input.limit ?? DELIVERY_PAGE;
  const rows = await deliveriesOfEndpoint(db, input.endpointId, before, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { deliveries: page.map(deliveryView), nextCursor: rows.length > limit && last ? encodePageCursor([last.id]) : null };
}

/** Sends a delivery again now, on a new schedule and with the same webhook-id (receivers deduplicate on it); audited. */
export async function resendDelivery(
  db: Db,
  actor: WebhookActor,
  input: { clientId: string; deliveryId: string; reason?: string | undefined },
  now: Date = new Date(),
): Promise<WebhookDelivery> {
  const row = await deliveryOfClient(db, input.clientId, input.deliveryId);
  if (!row) throw errors.notFound();
  const endpoint = await endpointOrNotFound(db, input.clientId, row.endpoint_id);
  if (endpoint.enabled !== 1) throw webhookErrors.endpointDisabled();
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    if (!(await requeueDelivery(trx, row.id, at))) throw webhookErrors.inFlight();
    await audit(
      trx,
      actor,
      input.clientId,
      'webhooks.delivery.resend',
      row.id,
      { eventId: row.event_id, endpointId: row.endpoint_id, previousStatus: row.status, reason: input.reason ?? null },
      now,
    );
  });
  wakeWebhookWorkers();
  const after = await deliveryOfClient(db, input.clientId, input.deliveryId);
  return deliveryView(after ?? row);
}
