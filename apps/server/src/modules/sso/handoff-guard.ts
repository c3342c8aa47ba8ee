import type { FastifyRequest } from 'fastify';
import { SESSION_HEADER } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import type { SessionPolicy } from '../sessions/service.ts';
import type { SessionGuard } from '../sessions/session-guard.ts';
import { HANDOFF_ID_PATTERN, redeemHandoff } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether this request's session was started just now by single sign-on's hand-off (its user data says so). */
    ssoHandoff: boolean;
  }
}

/**
 * preHandler of GET user only (spec section 4, SSO): an id from /sso-authenticated?JSESSIONID=… is
 * swapped, once and within a minute, for a fresh session whose id the reply's sessionId carries;
 * any other id goes to the ordinary session guard. Other routes never accept a hand-off id.
 */
export function ssoHandoffOrSession(db: Db, policy: SessionPolicy, guard: SessionGuard): SessionGuard {
  return async (request: FastifyRequest) => {
    const header = request.headers[SESSION_HEADER];
    if (typeof header !== 'string' || !HANDOFF_ID_PATTERN.test(header)) return guard(request);
    const started = await redeemHandoff(db, policy, request.clientId, header);
    if (!started) {
      request.log.warn(
        { clientId: request.clientId, step: 'handoff', reason: 'unknown, used or expired single sign-on session id' },
        'single sign-on refused',
      );
      throw errors.sessionRequired();
    }
    request.session = started.session;
    request.sessionId = started.sessionId;
    request.ssoHandoff = true;
  };
}
