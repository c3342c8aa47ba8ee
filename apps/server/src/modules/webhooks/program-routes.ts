import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ProgramCreateWebhookRequest,
  ProgramRotateWebhookSecretRequest,
  ProgramUpdateWebhookRequest,
  ProgramWebhookParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecretReply,
  programWebhooksPaths as paths,
} from '@rewards/contract/console-webhooks';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { apiCallerOf } from '../api-keys/guard.ts';
import { withScope } from '../program-api/routes.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookActor,
  type WebhookSettings,
} from './manage.ts';

const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * The program API's webhook routes (issue 29 §3, docs/decisions/084) for a key with scope
 * `webhooks:manage`: the key's client's endpoints only (another client's id is 404), on the
 * service the console and `rewards webhooks` call. Mounted by app.ts in the program API's scope.
 * The actor in the audit is the key's name.
 */
export function programWebhookRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const { db, config } = deps;
  const settings: WebhookSettings = { dataDir: config.catalog.dataDir, policy: config.webhooks };
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const actorOf = (request: FastifyRequest): WebhookActor => ({ name: apiCallerOf(request).keyName, kind: 'api-key', origin: request.ip });
  const clientOf = (request: FastifyRequest) => apiCallerOf(request).clientId;

  typed.get(
    paths.endpoints,
    withScope(db, 'webhooks:manage', {
      summary: "The client's webhook endpoints (never their secrets)",
      response: { 200: WebhookEndpointList },
    }),
    async (request) => ({ endpoints: await listEndpoints(db, clientOf(request)) }),
  );

  typed.post(
    paths.endpoints,
    withScope(db, 'webhooks:manage', {
      summary: 'Add a webhook endpoint; the reply holds its signing secret (whsec_…), the only time it is shown',
      description:
        'The URL must be https and reach the internet (never a loopback, private, link-local or metadata address), checked now and before each delivery. events: some of the kinds, or ["*"] for every kind, also those added later.',
      body: ProgramCreateWebhookRequest,
      response: { 201: WebhookSecretReply },
    }),
    async (request, reply) => {
      const { url, events, description } = request.body;
      const made = await createEndpoint(db, settings, actorOf(request), { clientId: clientOf(request), url, events, description });
      reply.status(201);
      return made;
    },
  );

  typed.get(
    pattern(paths.endpoint(':endpointId')),
    withScope(db, 'webhooks:manage', {
      summary: 'One webhook endpoint',
      params: ProgramWebhookParams,
      response: { 200: WebhookEndpoint },
    }),
    async (request) => getEndpoint(db, clientOf(request), request.params.endpointId),
  );

  typed.patch(
    pattern(paths.endpoint(':endpointId')),
    withScope(db, 'webhooks:manage', {
      summary: 'Change a webhook endpoint: its URL, event kinds, description, or enable and disable it',
      params: ProgramWebhookParams,
      body: ProgramUpdateWebhookRequest,
      response: { 200: WebhookEndpoint },
    }),
    async (request) =>
      updateEndpoint(db, settings, actorOf(request), {
        clientId: clientOf(request),
        endpointId: request.params.endpointId,
        ...request.body,
      }),
  );

  typed.delete(
    pattern(paths.endpoint(':endpointId')),
    withScope(db, 'webhooks:manage', {
      summary: 'Remove a webhook endpoint and its deliveries (nothing more is sent to it)',
      params: ProgramWebhookParams,
      response: { 204: z.null().describe('removed') },
    }),
    async (request, reply) => {
      await deleteEndpoint(db, actorOf(request), { clientId: clientOf(request), endpointId: request.params.endpointId });
      reply.status(204);
      return null;
    },
  );

  typed.post(
    pattern(paths.rotateSecret(':endpointId')),
    withScope(db, 'webhooks:manage', {
      summary:
        'A new signing secret, shown once; the old one signs beside it for overlapHours (default 24), so the receiver can switch without a gap',
      params: ProgramWebhookParams,
      // No body: the default overlap.
      body: ProgramRotateWebhookSecretRequest.nullish(),
      response: { 200: WebhookSecretReply },
    }),
    async (request) =>
      rotateSecret(db, settings, actorOf(request), {
        clientId: clientOf(request),
        endpointId: request.params.endpointId,
        ...(request.body ?? {}),
      }),
  );
}
