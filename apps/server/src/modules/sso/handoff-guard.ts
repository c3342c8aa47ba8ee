import type { FastifyRequest } from 'fastify';
import { SESSION_HEADER } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import type { SessionPolicy } from '../sessions/service.ts';
import type { SessionHook } from '../sessions/session-guard.ts';
import { HANDOFF_ID_PATTERN, redeemHandoff } from './service.ts';

/** The requests whose session the hand-off started just now (their user data says ssoAuthenticated). */
const swapped = new WeakSet<FastifyRequest>();

export function startedBySso(request: FastifyRequest): boolean {
  return swapped.has(request);
}

/**
 * preHandler of GET user only (spec section 4, SSO): an id from /sso-authenticated?JSESSIONID=… is
 * swapped, once and within a minute, for a fresh session whose id the reply's sessionId carries;
 * any other id goes to the ordinary session guard. Other routes never accept a hand-off id.
 * Callback-style, like the guard it passes to: the signed-in case costs no promise (docs/decisions/027).
 */
export function ssoHandoffOrSession(db: Db, policy: SessionPolicy, guard: SessionHook): SessionHook {
  const swap = async (request: FastifyRequest, handoffId: string): Promise<void> => {
    const started = await redeemHandoff(db, policy, request.clientId, handoffId);
    if (!started) {
      request.log.warn(
        { clientId: request.clientId, step: 'handoff', reason: 'unknown, used or expired single sign-on session id' },
        'single sign-on refused',
      );
      throw errors.sessionRequired();
    }
    request.session = started.session;
    request.sessionId = started.sessionId;
    swapped.add(request);
  };
  return (request, reply, done) => {
    const header = request.headers[SESSION_HEADER];
    if (typeof header !== 'string' || !HANDOFF_ID_PATTERN.test(header)) return guard(request, reply, done);
    swap(request, header).then(
      () => done(),
      (error: unknown) => done(error as Error),
    );
  };
}
