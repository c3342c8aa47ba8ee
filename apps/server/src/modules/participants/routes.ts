import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AcknowledgeReply, ProgramNamesReply, SessionHeaders, SetLocaleRequest, UserData, apiPaths } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { Session } from '../sessions/tables.ts';
import { requireSession, sessionHook, sessionOf } from '../sessions/session-guard.ts';
import type { SessionPolicy } from '../sessions/service.ts';
import { ssoHandoffOrSession, startedBySso } from '../sso/handoff-guard.ts';
import { readyReplies } from '../../http/ready-reply.ts';
import { acknowledgePrivacyNotice, getProgramNames, getUserData, setLocale, userDataBody, userDataBodyAtHand } from './service.ts';

export function participantRoutes(app: FastifyInstance, db: Db, sessionPolicy: SessionPolicy): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireSession(db, sessionPolicy);
  const sessionIdOf = (request: { sessionId: string | null }) => request.sessionId ?? '';

  // GET user also swaps the one-time id of single sign-on for a session (decision 024); on
  // PostgreSQL its session, participant and programs come in one statement (decision 034).
  const userPreHandler = ssoHandoffOrSession(db, sessionPolicy, sessionHook(db, sessionPolicy, { withUser: true }));
  // Ready bytes for the ordinary case, the most frequent signed-in call (docs/decisions/027, 028).
  const ready = readyReplies(app, { noStore: true });
  const userReply = async (request: FastifyRequest, reply: FastifyReply, session: Session, sessionId: string) => {
    if (startedBySso(request)) return { ...(await getUserData(db, session, sessionId)), ssoAuthenticated: true };
    if (ready.sendOwn(request, reply, await userDataBody(db, session, sessionId))) return reply;
    // HEAD, or a server shutting down: Fastify's ordinary reply.
    return getUserData(db, session, sessionId);
  };
  typed.get(
    apiPaths.user,
    {
      preHandler: userPreHandler,
      schema: {
        summary: 'The signed-in participant: names, balance, programs, language (also swaps the one-time id of single sign-on)',
        tags: ['Participant'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        response: { 200: UserData },
      },
    },
    (request, reply) => {
      const session = sessionOf(request);
      const sessionId = sessionIdOf(request);
      // The signed-in case with the data at hand: written at once, no promise (docs/decisions/035).
      // Undefined tells Fastify the reply is taken care of.
      if (!startedBySso(request)) {
        const body = userDataBodyAtHand(db, session, sessionId);
        if (body && ready.sendOwn(request, reply, body)) return undefined;
      }
      return userReply(request, reply, session, sessionId);
    },
  );

  typed.post(
    apiPaths.userLocale,
    {
      preHandler,
      schema: {
        summary: "Change the participant's language",
        tags: ['Participant'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        body: SetLocaleRequest,
        response: { 200: UserData },
      },
    },
    async (request) => setLocale(db, sessionOf(request), sessionIdOf(request), request.body.locale.code),
  );

  typed.get(
    apiPaths.programNames,
    {
      preHandler,
      schema: {
        summary: 'The programs the participant takes part in',
        tags: ['Participant'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        response: { 200: ProgramNamesReply },
      },
    },
    async (request) => ({
      participantRules: await getProgramNames(db, sessionOf(request)),
    }),
  );

  typed.put(
    apiPaths.acknowledgePrivacyNotice,
    {
      preHandler,
      schema: {
        summary: 'Acknowledge the current privacy notice',
        tags: ['Participant'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        response: { 200: AcknowledgeReply },
      },
    },
    async (request) => acknowledgePrivacyNotice(db, sessionOf(request)),
  );
}
