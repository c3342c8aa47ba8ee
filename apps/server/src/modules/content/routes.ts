import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ContactReply,
  ContactRequest,
  ContentKeyParams,
  ContentQuery,
  ContentReply,
  SESSION_HEADER,
  SessionHeaders,
  apiPaths,
} from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { requireSession, sessionOf } from '../sessions/session-guard.ts';
import { getContent, submitContact } from './service.ts';

/** Rules, FAQs, privacy texts and contactUs (issue 5, section 6). */
export function contentRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const guard = requireSession(deps.db, deps.sessionPolicy);

  // Public keys are served without a session, but a session that is sent must be live: a
  // stale one answers 401 like everywhere else, so the web's session-timeout path runs.
  const optionalSession = async (request: FastifyRequest) => {
    if (request.headers[SESSION_HEADER] !== undefined) await guard(request);
  };

  typed.get(
    // The spec's path with Fastify's parameter in place of the key.
    `${apiPaths.contentKey('')}:key`,
    {
      preHandler: optionalSession,
      schema: {
        summary: 'A content text: rules of a program, FAQs, privacy policy or notice',
        tags: ['Content'],
        security: [{ session: [] }, {}],
        headers: SessionHeaders,
        params: ContentKeyParams,
        querystring: ContentQuery,
        response: { 200: ContentReply },
      },
    },
    async (request) =>
      getContent(deps.db, { clientId: request.clientId, session: request.session, locale: request.query.locale }, request.params.key),
  );

  typed.post(
    apiPaths.contactUs,
    {
      preHandler: deps.requireSession,
      schema: {
        summary: "Send a message to the program's support",
        tags: ['Content'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        body: ContactRequest,
        response: { 200: ContactReply },
      },
    },
    async (request) => submitContact(deps.db, deps.config.limits, sessionOf(request), request.body),
  );
}
