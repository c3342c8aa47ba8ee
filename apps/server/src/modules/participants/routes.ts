import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AcknowledgeReply, ProgramNamesReply, SessionHeaders, SetLocaleRequest, UserData, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { ssoHandoffOrSession } from '../sso/handoff-guard.ts';
import { acknowledgePrivacyNotice, getProgramNames, getUserData, setLocale } from './service.ts';

export function participantRoutes(app: FastifyInstance, { db, sessionPolicy, requireSession: preHandler }: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const sessionIdOf = (request: { sessionId: string | null }) => request.sessionId ?? '';

  typed.get(
    apiPaths.user,
    {
      // GET user also swaps the one-time id of single sign-on for a session (decision 024).
      preHandler: ssoHandoffOrSession(db, sessionPolicy, preHandler),
      schema: {
        summary: 'The signed-in participant: names, balance, programs, language (also swaps the one-time id of single sign-on)',
        tags: ['Participant'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        response: { 200: UserData },
      },
    },
    async (request) => {
      const data = await getUserData(db, sessionOf(request), sessionIdOf(request));
      return request.ssoHandoff ? { ...data, ssoAuthenticated: true } : data;
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
