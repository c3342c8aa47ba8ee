import type { FastifyRequest } from 'fastify';
import { SESSION_HEADER } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../../db/schema.ts';
import { errors } from '../../http/api-error.ts';
import { resumeSession, resumeSessionWithUser, type SessionPolicy } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    /** The raw id from the header, kept so logout can end exactly this session. */
    sessionId: string | null;
  }
}

/** A plausible id: base64url of 32 bytes is 43 characters. Anything else is not looked up. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * preHandler for signed-in-only routes: 401 for a missing, unknown or expired session.
 * `withUser` (GET user): on PostgreSQL the participant and their programs are read in the same
 * statement as the session, for the handler to use (docs/decisions/034).
 */
export function requireSession(db: Db, policy: SessionPolicy, { withUser = false }: { withUser?: boolean } = {}) {
  const resume = withUser ? resumeSessionWithUser : resumeSession;
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers[SESSION_HEADER];
    const sessionId = typeof header === 'string' && SESSION_ID_PATTERN.test(header) ? header : undefined;
    if (!sessionId) throw errors.sessionRequired();
    const session = await resume(db, policy, request.clientId, sessionId);
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
