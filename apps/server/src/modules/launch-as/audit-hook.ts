import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.ts';
import { fetchKept, loadOnMiss } from '../../db/read-cache.ts';
import { recordAudit } from '../audit/service.ts';
import { launchBySession } from './service.ts';

interface Launch {
  issuedBy: string;
  username: string;
  tokenId: string;
}

interface SessionOf {
  clientId: string;
  sessionHash: string;
}

/** Launched sessions last 30 minutes: a few hundred entries cover every live one. */
const CACHE_LIMIT = 500;

/**
 * What an administrator opens in a launched session goes to the audit log: method, route pattern
 * and status, never a body or a query string. Only sessions marked admin-as-user pay for it (one
 * insert per request; who launched it is looked up once per session and remembered).
 */
export function auditLaunchedSessions(app: FastifyInstance, db: Db): void {
  /**
   * Who launched each session, so that the audit costs a request one insert and not a query
   * more. Bounded by CACHE_LIMIT, the least recently used out first (looked up again if its
   * session is still in use); a session's launch never changes, so nothing expires by time.
   * Concurrent requests of one session share one lookup; "not found" (a session marked without a
   * launch, which launchAs never makes) and a failed lookup are not kept.
   */
  const launches = new LRUCache<string, Launch, SessionOf>({
    max: CACHE_LIMIT,
    ...loadOnMiss(async ({ clientId, sessionHash }: SessionOf) => {
      const row = await launchBySession(db, clientId, sessionHash);
      return row ? { issuedBy: row.issuedBy, username: row.username, tokenId: row.tokenId } : undefined;
    }),
  });

  const launchOf = (clientId: string, sessionHash: string) =>
    fetchKept(launches, `${clientId}\u0000${sessionHash}`, { clientId, sessionHash });

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

  app.addHook('onResponse', async (request, reply) => {
    const session = request.session;
    if (session && session.admin_as_user === 1) await record(request, reply, session);
  });
}
