import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_API_BASE,
  API_KEY_SECURITY_SCHEME,
  AdminAuthHeaders,
  ClientHeaders,
  LaunchAsRequest,
  LaunchTokenReply,
  LaunchTokenRequest,
  SESSION_HEADER,
  UserData,
  adminPaths,
  apiPaths,
} from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import type { AdminKey } from './tables.ts';
import { findClient } from '../clients/service.ts';
import { findParticipantByUsername } from '../participants/service.ts';
import { carriesApiKey, requireApiKey } from '../api-keys/guard.ts';
import { authenticateAdminKey } from './admin-keys.ts';
import { auditLaunchedSessions } from './audit-hook.ts';
import { launchErrors } from './errors.ts';
import { clientOrigin, issueLaunchToken, launchAs } from './service.ts';
import { touchAdminKey } from './store.ts';
import { badKeyThrottle } from '../limits/bad-key-throttle.ts';

/** launchAs (issue 9): a support administrator's single-use token becomes a participant session. Registered under /api/v1.0. */
export function launchAsRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  typed.post(
    apiPaths.launchAs,
    {
      schema: {
        summary: "Launch-as: a support administrator's single-use token becomes a 30-minute admin-as-user session",
        headers: ClientHeaders,
        body: LaunchAsRequest,
        response: { 200: UserData },
      },
    },
    async (request, reply) => {
      const user = await launchAs(deps.db, deps.sessionPolicy, request.clientId, request.body.token, request.ip);
      reply.header(SESSION_HEADER, user.sessionId);
      return user;
    },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The admin API's caller, set by its onRequest hook. */
    adminKey?: AdminKey;
  }
}

/**
 * The admin API (issue 9): POST /api/admin/v1/launch-tokens with a bearer key: an installation's
 * admin key, or a client's API key with the launch-as scope (decision 083), which acts for its
 * own client only. Registered at the root.
 */
export function adminApiRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const { db } = deps;
  // At the root, so it sees every request of a launched session (docs/decisions/025).
  auditLaunchedSessions(app, db);
  const throttle = badKeyThrottle(launchErrors.keyThrottled);
  const apiKeyGuard = requireApiKey(db, 'launch-as');
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    `${ADMIN_API_BASE}${adminPaths.launchTokens}`,
    {
      schema: {
        summary: 'Issue a launch-as link (single use, 2 minutes) for one participant, with a reason; audited',
        headers: AdminAuthHeaders,
        body: LaunchTokenRequest,
        response: { 201: LaunchTokenReply },
        security: [{ adminBearer: [] }, { [API_KEY_SECURITY_SCHEME]: ['launch-as'] }],
      },
      // The key before the body: a caller without a good key learns nothing from validation.
      onRequest: async function (request, reply) {
        // A client's API key: its guard (401, 403 without launch-as, its rate); it sets request.apiCaller.
        if (carriesApiKey(request)) return apiKeyGuard.call(this, request, reply);
        throttle.check(request.ip);
        try {
          request.adminKey = await authenticateAdminKey(db, request.headers.authorization);
        } catch (error) {
          throttle.recordFailure(request.ip);
          throw error;
        }
      },
    },
    async (request, reply) => {
      const key = request.adminKey;
      const caller = request.apiCaller;
      if (!key && !caller) throw launchErrors.keyInvalid();
      const { username, reason, client } = request.body;
      // An API key's client is its own (never the body's); an admin key's is its own, or the body's for a key of every client.
      const keyClient = caller ? caller.clientId : (key?.client_id ?? null);
      if (keyClient !== null && client !== undefined && client !== keyClient) throw launchErrors.keyForbidden();
      const clientId = keyClient ?? client;
      if (!clientId) throw launchErrors.clientRequired();
      if (!(await findClient(db, clientId))) throw launchErrors.clientNotFound();
      const participant = await findParticipantByUsername(db, clientId, username);
      if (!participant) throw launchErrors.participantNotFound();
      const origin = await clientOrigin(db, clientId, { port: deps.config.port });
      const issued = await db.transaction().execute(async (trx) => {
        const now = new Date();
        if (key) await touchAdminKey(trx, key.id, now.toISOString());
        return issueLaunchToken(
          trx,
          {
            participant,
            reason,
            issuedBy: caller ? caller.keyName : (key?.name ?? ''),
            issuedVia: 'api',
            actorKind: caller ? 'api-key' : 'admin',
            issuedFrom: request.ip,
            origin,
            ...(caller ? { details: { apiKey: caller.keyId } } : {}),
          },
          now,
        );
      });
      return reply.status(201).send(issued);
    },
  );
}
