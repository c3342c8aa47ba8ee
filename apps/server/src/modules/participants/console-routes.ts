import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ParticipantSearchReply } from '@rewards/contract';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ConsoleParticipant,
  ConsoleParticipantParams,
  ConsoleSearchQuery,
  ConsoleStatementPage,
  ConsoleStatementQuery,
  consoleParticipantPaths,
} from '@rewards/contract/console-participants';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { auditTrailRoutes } from '../audit/console-routes.ts';
import { requireRole, requireStaff, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { documented } from '../staff/routes.ts';
import { staffScope } from '../staff/scope.ts';
import { roleIn } from '../staff/roles.ts';
import { consoleParticipant, consoleSearch, consoleStatement } from './console-view.ts';

/**
 * The console's reads (issue 17, docs/decisions/047), inside the console's plugin (its host,
 * cookie and origin checks): search, a participant's page and statement, and the audit trail.
 * Every client-scoped route checks the caller's role in the path's client first.
 */
export async function consoleReadRoutes(api: FastifyInstance, deps: ModuleDeps, origin: ConsoleOrigin): Promise<void> {
  const { db, config } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const staff = requireStaff(db, origin);
  const reader = requireRole(db, origin, (request) => (request.params as { clientId: string }).clientId, STAFF_ROLES);

  typed.get(
    consoleParticipantPaths.search,
    {
      onRequest: staff,
      schema: {
        summary:
          "Find participants by a prefix of name, username, e-mail or account number (2 characters at least), in the caller's clients or the one named",
        querystring: ConsoleSearchQuery,
        response: { 200: ParticipantSearchReply },
        ...documented('any staff'),
      },
    },
    async (request) => consoleSearch(db, await staffScope(db, staffOf(request).staff), request.query),
  );

  typed.get(
    '/clients/:clientId/participants/:participantId',
    {
      onRequest: reader,
      schema: {
        summary:
          "A participant's page: identity, balance, codes, orders, sign-ins and limits, sessions, mails, contact messages, the latest audit entries, and what the caller may do",
        params: ConsoleParticipantParams,
        response: { 200: ConsoleParticipant },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => {
      const person = staffOf(request).staff;
      const role = ((await roleIn(db, person.id, request.params.clientId)) as StaffRole | undefined) ?? null;
      return consoleParticipant({ db, limits: config.limits, staff: person, role }, request.params.clientId, request.params.participantId);
    },
  );

  typed.get(
    '/clients/:clientId/participants/:participantId/statement',
    {
      onRequest: reader,
      schema: {
        summary:
          "The participant's statement newest first, paged, with the balance after each entry, the participant's text, the internal note and who posted it",
        params: ConsoleParticipantParams,
        querystring: ConsoleStatementQuery,
        response: { 200: ConsoleStatementPage },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => consoleStatement(db, request.params.clientId, request.params.participantId, request.query),
  );

  await auditTrailRoutes(api, deps, origin);
}
