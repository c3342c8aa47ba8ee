import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { StaffRole } from '@rewards/contract/console';
import {
  ApiKeyList,
  ApiKeyParams,
  ApiKeyView,
  CreateApiKeyRequest,
  CreatedApiKey,
  RevokeApiKeyRequest,
  consoleApiKeysPaths as paths,
} from '@rewards/contract/console-api-keys';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import type { Documented } from '../staff/routes.ts';
import { createApiKey, listClientApiKeys, revokeClientApiKey } from './service.ts';

/** Who may make and revoke keys: a client's program managers (and owners, who pass every role check). */
const MANAGING: readonly StaffRole[] = ['program_manager'];
/** Who may read the list (names, prefixes, scopes, who made them; never a key): managers, and auditors, whose work is to review who can reach the client's data. */
const READING: readonly StaffRole[] = ['program_manager', 'auditor'];
const ClientParams = ApiKeyParams.pick({ clientId: true });
const pattern = (path: string) => path.replaceAll('%3A', ':');
const keysPattern = pattern(paths.keys(':clientId'));
const revokePattern = pattern(paths.revoke(':clientId', ':keyId'));

/**
 * The console's API keys (issue 29 §1, docs/decisions/083), inside the console plugin of
 * modules/staff/routes.ts, on the service `rewards api-keys` calls. Making a key reveals a
 * secret and grants access: a fresh second factor. Revoking only takes access away, and must be
 * quick when a key leaks: the session and a reason are enough.
 */
export function consoleApiKeyRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;

  typed.get(
    keysPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, READING),
      schema: {
        summary:
          "The client's API keys, newest first: name, prefix, scopes, limits, who made each and when, last use, revocation; never a key",
        params: ClientParams,
        response: { 200: ApiKeyList },
        ...documented({ roles: READING }),
      },
    },
    async (request) => ({ keys: await listClientApiKeys(db, request.params.clientId) }),
  );

  typed.post(
    keysPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Make an API key for the client (a fresh second factor and a reason; audited). The reply holds the key, the only time it is shown: the server keeps its hash',
        params: ClientParams,
        body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey },
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request, reply) => {
      const { name, scopes, ratePerSecond, burst, reason } = request.body;
      const created = await createApiKey(db, {
        clientId: request.params.clientId,
        name,
        scopes,
        ...(ratePerSecond === undefined ? {} : { ratePerSecond }),
        ...(burst === undefined ? {} : { burst }),
        createdBy: staffOf(request).staff.email,
        actorKind: 'staff',
        reason,
        origin: request.ip,
      });
      return reply.status(201).send(created);
    },
  );

  typed.post(
    revokePattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary: 'Revoke an API key of the client at once, with a reason (audited): its next call is refused (401)',
        params: ApiKeyParams,
        body: RevokeApiKeyRequest,
        response: { 200: ApiKeyView },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { view } = await revokeClientApiKey(db, {
        clientId: request.params.clientId,
        keyId: request.params.keyId,
        revokedBy: staffOf(request).staff.email,
        actorKind: 'staff',
        reason: request.body.reason,
        origin: request.ip,
      });
      return view;
    },
  );
}
