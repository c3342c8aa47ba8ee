import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ConsoleEventTypeDeclareRequest,
  ConsoleEventTypeList,
  ConsoleEventTypeParams,
  ConsoleEventTypeReply,
  ConsoleEventTypeRetireRequest,
  ConsoleEventTypesParams,
  consoleEventTypesPaths as paths,
} from '@rewards/contract/console-event-types';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import type { Documented } from '../staff/routes.ts';
import { declareEventType, listEventTypes, retireEventType, type EventTypeEditor } from './types.ts';

/** Who declares and retires a client's event types: its program managers (and owners, who pass every role check); decision 100. */
const CHANGING: readonly StaffRole[] = ['program_manager'];
const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * Programs → Earning rules → Event types (issue 32 §1, docs/decisions/100), inside the console
 * plugin of modules/staff/routes.ts, on the service `rewards events types` calls. Every role of
 * the client reads; program managers and owners declare and retire (the service checks the role
 * again and audits). HTTP only.
 */
export function consoleEventTypeRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const reading = requireRole(db, site, clientIdOf, STAFF_ROLES);
  const changing = requireRole(db, site, clientIdOf, CHANGING);
  const editorOf = (request: FastifyRequest): EventTypeEditor => {
    const { staff } = staffOf(request);
    return { kind: 'staff', name: staff.email, origin: request.ip, staffId: staff.id, owner: staff.owner === 1 };
  };

  typed.get(
    pattern(paths.types(':clientId')),
    {
      onRequest: reading,
      schema: {
        summary:
          "The client's event types: purchase and return built in, the declared ones and those its earning rules earn on, each with its rules and whether it is retired",
        params: ConsoleEventTypesParams,
        response: { 200: ConsoleEventTypeList },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => ({ types: await listEventTypes(db, request.params.clientId) }),
  );

  typed.post(
    pattern(paths.types(':clientId')),
    {
      onRequest: changing,
      schema: {
        summary:
          'Declare an event type (lower-case dotted words, course.completed) with what it means; audited. A retired type is declared again',
        params: ConsoleEventTypesParams,
        body: ConsoleEventTypeDeclareRequest,
        response: { 201: ConsoleEventTypeReply },
        ...documented({ roles: CHANGING }),
      },
    },
    async (request, reply) => {
      const change = await declareEventType(db, editorOf(request), request.params.clientId, request.body);
      reply.status(201);
      return { type: change.type };
    },
  );

  typed.post(
    pattern(paths.retire(':clientId', ':name')),
    {
      onRequest: changing,
      schema: {
        summary:
          'Retire an event type with a reason; audited. Events of it are refused from then on; refused while an enabled rule earns on it',
        params: ConsoleEventTypeParams,
        body: ConsoleEventTypeRetireRequest,
        response: { 200: ConsoleEventTypeReply },
        ...documented({ roles: CHANGING }),
      },
    },
    async (request) => {
      const change = await retireEventType(db, editorOf(request), request.params.clientId, request.params.name, request.body.reason);
      return { type: change.type };
    },
  );
}
