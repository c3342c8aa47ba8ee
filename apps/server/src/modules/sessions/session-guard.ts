import type { FastifyRequest } from 'fastify';
import { SESSION_HEADER } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { resumeSession, type SessionPolicy } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    /** The raw id from the header, kept so logout can end exactly this session. */
    sessionId: string | null;
  }
}

/** A plausible id: base64url of 32 bytes is 43 characters. Anything else is not looked up. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The preHandler of every signed-in route. */
export type SessionGuard = (request: FastifyRequest) => Promise<void>;

/**
 * preHandler for signed-in-only routes: the session of the request's header, looked up with the
 * request's client (and slid, or ended when expired), or 401 for a missing, implausible, unknown
 * or expired one.
 */
export function requireSession(db: Db, policy: SessionPolicy): SessionGuard {
  return async (request) => {
    const header = request.headers[SESSION_HEADER];
    const sessionId = typeof header === 'string' && SESSION_ID_PATTERN.test(header) ? header : undefined;
    if (!sessionId) throw errors.sessionRequired();
    const session = await resumeSession(db, policy, request.clientId, sessionId);
    if (!session) throw errors.sessionRequired();
    request.session = session;
    request.sessionId = sessionId;
  };
}

/** The session a guarded route runs in; the guard has made sure there is one. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw errors.sessionRequired();
  return request.session;
}
