import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import { ExpirySettings, ExpirySettingsReply, ExpirySettingsRequest, consoleClientPaths as paths } from '@rewards/contract/console-clients';
import { ConsoleParticipantParams } from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { readExpirySettings, setExpirySettings } from './expiry-settings.ts';

/** Who may change a client's settings: its program managers (and owners, who pass every role check). */
const MANAGING: readonly StaffRole[] = ['program_manager'];
const ClientParams = ConsoleParticipantParams.pick({ clientId: true });
const expiryPattern = paths.expirySettings(':clientId').replaceAll('%3A', ':');

type Documented = (access: { roles: readonly StaffRole[] }) => Record<string, unknown>;

/**
 * The console's client settings of points that expire (issue 19, docs/decisions/062), inside the
 * console plugin of modules/staff/routes.ts. Every role of the client reads them (support agents
 * and auditors read-only); program managers and owners change them with a reason, through the
 * service `rewards clients update --expiry …` calls.
 */
export function consoleClientRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;

  typed.get(
    expiryPattern,
    {
      preHandler: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's expiry policy, time zone and reminder days",
        params: ClientParams,
        response: { 200: ExpirySettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readExpirySettings(db, request.params.clientId),
  );

  typed.put(
    expiryPattern,
    {
      preHandler: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Set the expiry policy (dates only points earned from now on), the time zone and the reminder days, with a reason; audited',
        params: ClientParams,
        body: ExpirySettingsRequest,
        response: { 200: ExpirySettingsReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { reason, ...change } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await setExpirySettings(db, actor, request.params.clientId, change, reason);
      return { ...done.to, auditId: done.auditId };
    },
  );
}
