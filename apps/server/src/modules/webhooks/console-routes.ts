import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StaffRole } from '@rewards/contract/console';
import {
  CreateWebhookEndpointRequest,
  DeleteWebhookEndpointRequest,
  ResendWebhookDeliveryRequest,
  RotateWebhookSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookClientParams,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookSecretReply,
  consoleWebhooksPaths as paths,
} from '@rewards/contract/console-webhooks';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { errors } from '../../http/api-error.ts';
import { findClient } from '../clients/service.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import type { Documented } from '../staff/routes.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateSecret,
  updateEndpoint,
  type WebhookActor,
  type WebhookSettings,
} from './manage.ts';

/** Who manages a client's webhooks: its program managers (and owners, who pass every role check). */
const MANAGING: readonly StaffRole[] = ['program_manager'];
const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * The console's webhooks (issue 29 §3, docs/decisions/084), inside the console plugin of
 * modules/staff/routes.ts, on the service `rewards webhooks` calls (manage.ts). Owners and program
 * managers of the client read and change; adding an endpoint and rotating its secret reveal the
 * signing secret, so they take a fresh second factor.
 */
export function consoleWebhookRoutes(api: FastifyInstance, deps: ModuleDeps, site: ConsoleOrigin, documented: Documented): void {
  const { db, config } = deps;
  const settings: WebhookSettings = { dataDir: config.catalog.dataDir, policy: config.webhooks };
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const guard = requireRole(db, site, clientIdOf, MANAGING);
  const actorOf = (request: FastifyRequest): WebhookActor => ({ name: staffOf(request).staff.email, kind: 'staff', origin: request.ip });
  /** An owner passes the role check for any id: a client that does not exist is 404. */
  const existing = async (clientId: string) => {
    if (!(await findClient(db, clientId))) throw errors.notFound();
    return clientId;
  };

  typed.get(
    pattern(paths.endpoints(':clientId')),
    {
      onRequest: guard,
      schema: {
        summary: "The client's webhook endpoints: URL, event kinds, enabled, failing since (never the secrets)",
        params: WebhookClientParams,
        response: { 200: WebhookEndpointList },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => ({ endpoints: await listEndpoints(db, await existing(request.params.clientId)) }),
  );

  typed.post(
    pattern(paths.endpoints(':clientId')),
    {
      onRequest: guard,
      schema: {
        summary:
          'Add a webhook endpoint (a fresh second factor and a reason; audited). The reply holds its signing secret, the only time it is shown',
        params: WebhookClientParams,
        body: CreateWebhookEndpointRequest,
        response: { 201: WebhookSecretReply },
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request, reply) => {
      const clientId = await existing(request.params.clientId);
      const { url, events, description, reason } = request.body;
      const made = await createEndpoint(db, settings, actorOf(request), { clientId, url, events, description, reason });
      reply.status(201);
      return made;
    },
  );

  typed.patch(
    pattern(paths.endpoint(':clientId', ':endpointId')),
    {
      onRequest: guard,
      schema: {
        summary: 'Change an endpoint: its URL, event kinds, description, or enable and disable it, with a reason; audited',
        params: WebhookEndpointParams,
        body: UpdateWebhookEndpointRequest,
        response: { 200: WebhookEndpoint },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, endpointId } = request.params;
      return updateEndpoint(db, settings, actorOf(request), { clientId, endpointId, ...request.body });
    },
  );

  typed.delete(
    pattern(paths.endpoint(':clientId', ':endpointId')),
    {
      onRequest: guard,
      schema: {
        summary: 'Remove an endpoint and its deliveries, with a reason (nothing more is sent to it); audited',
        params: WebhookEndpointParams,
        body: DeleteWebhookEndpointRequest,
        response: { 204: z.null().describe('removed') },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request, reply) => {
      const { clientId, endpointId } = request.params;
      await deleteEndpoint(db, actorOf(request), { clientId, endpointId, reason: request.body.reason });
      reply.status(204);
      return null;
    },
  );

  typed.post(
    pattern(paths.rotateSecret(':clientId', ':endpointId')),
    {
      onRequest: guard,
      schema: {
        summary:
          'A new signing secret for the endpoint (a fresh second factor and a reason; audited); the old one signs beside it for overlapHours. The reply holds the new secret, the only time it is shown',
        params: WebhookEndpointParams,
        body: RotateWebhookSecretRequest,
        response: { 200: WebhookSecretReply },
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request) => {
      const { clientId, endpointId } = request.params;
      return rotateSecret(db, settings, actorOf(request), { clientId, endpointId, ...request.body });
    },
  );

  typed.get(
    pattern(paths.deliveries(':clientId', ':endpointId')),
    {
      onRequest: guard,
      schema: {
        summary: "An endpoint's deliveries, newest first: the event, status, tries, last answer and time, and the payload sent",
        params: WebhookEndpointParams,
        querystring: WebhookDeliveryQuery,
        response: { 200: WebhookDeliveryList },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, endpointId } = request.params;
      return listDeliveries(db, { clientId, endpointId, cursor: request.query.cursor });
    },
  );

  typed.post(
    pattern(paths.resend(':clientId', ':deliveryId')),
    {
      onRequest: guard,
      schema: {
        summary: 'Send a delivery again now, with the same webhook-id (the receiver deduplicates on it); audited',
        params: WebhookDeliveryParams,
        body: ResendWebhookDeliveryRequest,
        response: { 200: WebhookDelivery },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, deliveryId } = request.params;
      return resendDelivery(db, actorOf(request), { clientId, deliveryId, reason: request.body.reason });
    },
  );
}
