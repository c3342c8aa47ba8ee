import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { SESSION_HEADER } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { liveSessionAtHand, resumeSession, resumeSessionWithUser, type SessionPolicy } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    /** The raw id from the header, kept so logout can end exactly this session. */
    sessionId: string | null;
  }
}

/** A plausible id: base64url of 32 bytes is 43 characters. Anything else is not looked up. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The session id of the request's header if it is plausible; anything else is never looked up. */
function plausibleSessionId(request: FastifyRequest): string | undefined {
  const header = request.headers[SESSION_HEADER];
  return typeof header === 'string' && SESSION_ID_PATTERN.test(header) ? header : undefined;
}

/** A callback-style preHandler (Fastify's `(request, reply, done)`). */
export type SessionHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

type Resume = typeof resumeSession;

/** The guard's ordinary path: the session looked up (and slid, or ended) by `resume`. */
function guardWith(db: Db, policy: SessionPolicy, resume: Resume) {
  return async (request: FastifyRequest): Promise<void> => {
    const sessionId = plausibleSessionId(request);
    if (!sessionId) throw errors.sessionRequired();
    const session = await resume(db, policy, request.clientId, sessionId);
    if (!session) throw errors.sessionRequired();
    request.session = session;
    request.sessionId = sessionId;
  };
}

/** preHandler for signed-in-only routes: 401 for a missing, unknown or expired session. */
export function requireSession(db: Db, policy: SessionPolicy) {
  return guardWith(db, policy, resumeSession);
}

/**
 * requireSession as a callback hook, for the hottest signed-in route (GET user,
 * docs/decisions/027): a session at hand in the cache passes with no promise at all; anything
 * else (missing, unknown, expired, due for its touch, not cached) takes requireSession's path;
 * `withUser` with resumeSessionWithUser: on PostgreSQL the participant and their programs are
 * read in the same statement as the session, for the handler (docs/decisions/034).
 */
export function sessionHook(db: Db, policy: SessionPolicy, { withUser = false }: { withUser?: boolean } = {}): SessionHook {
  const guard = guardWith(db, policy, withUser ? resumeSessionWithUser : resumeSession);
  return (request, _reply, done) => {
    const sessionId = plausibleSessionId(request);
    const atHand = sessionId && liveSessionAtHand(db, request.clientId, sessionId);
    if (atHand) {
      request.session = atHand;
      request.sessionId = sessionId;
      return done();
    }
    guard(request).then(
      () => done(),
      (error: unknown) => done(error as Error),
    );
  };
}

/** The session a guarded route runs in; the guard has made sure there is one. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw errors.sessionRequired();
  return request.session;
}
