import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import { SsoSettings, SsoSettingsReply, SsoSettingsRequest, consoleClientPaths as paths } from '@rewards/contract/console-clients';
import { ConsoleParticipantParams } from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { readSsoSettings, setSsoSettings } from './console-settings.ts';
import type { Documented } from '../staff/routes.ts';

/**
 * Who may change a client's single sign-on: owners only (they pass every role check; no role of a
 * client does). Turning it on makes the server fetch the discovery document of an address the
 * caller chooses: that reach into the installation's network is the installation's to grant.
 */
const MANAGING: readonly StaffRole[] = [];
const ClientParams = ConsoleParticipantParams.pick({ clientId: true });
const ssoPattern = paths.ssoSettings(':clientId').replaceAll('%3A', ':');

/**
 * The console's single sign-on settings (issue 20 §3, part H, decision 065), inside the console
 * plugin of modules/staff/routes.ts: every role of the client reads them (never the secret);
 * owners change them with a reason, through the checks `rewards clients sso` runs.
 */
export function consoleSsoRoutes(api: FastifyInstance, db: Db, dataDir: string, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;

  typed.get(
    ssoPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's single sign-on: provider, claim, scopes, sign-in and logout types, site, redirect URIs (never the secret)",
        params: ClientParams,
        response: { 200: SsoSettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readSsoSettings(db, request.params.clientId),
  );

  typed.put(
    ssoPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          "Turn single sign-on on (the provider's discovery document read first; the secret write-only) or off, with a fresh second factor and a reason; audited without the secret",
        params: ClientParams,
        body: SsoSettingsRequest,
        response: { 200: SsoSettingsReply },
        // Who may sign in to the client's portal (decision 077).
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request) => {
      const { reason, ...change } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await setSsoSettings(db, dataDir, actor, request.params.clientId, change, reason);
      return { ...done.to, auditId: done.auditId, endSessionEndpoint: done.endSessionEndpoint };
    },
  );
}
