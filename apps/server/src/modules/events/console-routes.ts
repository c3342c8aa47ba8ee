import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES } from '@rewards/contract/console';
import { ConsoleParticipantParams } from '@rewards/contract/console-participants';
import { ConsoleParticipantEventsPage, ConsoleParticipantEventsQuery, consoleEventsPaths } from '@rewards/contract/events';
import type { Db } from '../../db/database.ts';
import { requireRole, type ConsoleOrigin } from '../staff/guard.ts';
import type { Documented } from '../staff/routes.ts';
import { participantEvents } from './service.ts';

/**
 * The console's side of events in (decision 097), inside the console plugin of
 * modules/staff/routes.ts: the events on a participant's page, for every role of the client.
 */
export function consoleEventRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const reading = requireRole(db, site, (request: FastifyRequest) => (request.params as { clientId: string }).clientId, STAFF_ROLES);
  typed.get(
    consoleEventsPaths.participantEvents,
    {
      onRequest: reading,
      schema: {
        summary: "A participant's events, newest first, each with what it earned rule by rule (paged)",
        params: ConsoleParticipantParams,
        querystring: ConsoleParticipantEventsQuery,
        response: { 200: ConsoleParticipantEventsPage },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => participantEvents(db, request.params.clientId, request.params.participantId, request.query),
  );
}
