import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { recordAudit } from '../audit/service.ts';
import { findLaunchBySession } from './store.ts';

/** Launched sessions last 30 minutes: a few hundred entries cover every live one. */
const CACHE_LIMIT = 500;

/**
 * What an administrator opens in a launched session goes to the audit log: method, route pattern
 * and status, never a body or a query string. Only sessions marked admin-as-user pay for it (one
 * insert per request; who launched it is looked up once per session and remembered).
 */
export function auditLaunchedSessions(app: FastifyInstance, db: Db): void {
  const launches = new Map<string, { issuedBy: string; username: string; tokenId: string } | null>();

  const launchOf = async (clientId: string, sessionHash: string) => {
    const cached = launches.get(sessionHash);
    if (cached !== undefined) return cached;
    const row = await findLaunchBySession(db, clientId, sessionHash);
    const found = row ? { issuedBy: row.issuedBy, username: row.username, tokenId: row.tokenId } : null;
    if (launches.size >= CACHE_LIMIT) launches.delete(launches.keys().next().value as string);
    launches.set(sessionHash, found);
    return found;
  };

  const record = async (request: FastifyRequest, reply: FastifyReply, session: NonNullable<FastifyRequest['session']>) => {
    try {
      const launch = await launchOf(session.client_id, session.id_hash);
      await recordAudit(db, {
        clientId: session.client_id,
        actor: launch?.issuedBy ?? 'unknown',
        actorKind: 'participant-session',
        action: 'launch-as.open',
        subject: launch?.username ?? session.participant_id,
        details: {
          method: request.method,
          route: request.routeOptions.url ?? 'unknown',
          status: reply.statusCode,
          ...(launch ? { token: launch.tokenId } : {}),
        },
        origin: request.ip,
      });
    } catch (error) {
      // The reply has gone; a failed audit write is logged for the operator, not the caller's problem.
      request.log.error({ err: { type: (error as Error).name, message: (error as Error).message } }, 'launch-as audit failed');
    }
  };

  // A callback hook: every other request passes with one test and no promise (docs/decisions/056).
  app.addHook('onResponse', (request, reply, done) => {
    const session = request.session;
    if (!session || session.admin_as_user !== 1) return done();
    void record(request, reply, session).then(() => done());
  });
}
