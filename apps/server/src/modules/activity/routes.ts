import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SessionHeaders, StatementQuery, StatementReply, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { replyNegotiated } from '../../http/negotiated-reply.ts';
import { readyReplies } from '../../http/ready-reply.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { getStatementBody } from './service.ts';

/** The statement path without its query string (the contract's helper builds the full URL). */
const statementPath = apiPaths.statement('', '').split('?')[0] ?? '/user/account/statement';

/** GET user/account/statement (issue 5, section 1). */
export function activityRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // Under the API's no-store rule (app.ts); written in one writeHead like client data (decision 028).
  const ready = readyReplies(app, { noStore: true });
  typed.get(
    statementPath,
    {
      preHandler: deps.requireSession,
      schema: {
        summary: "The participant's account statement, newest first, a page at a time",
        tags: ['Activity'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        querystring: StatementQuery,
        response: { 200: StatementReply },
      },
    },
    async (request, reply) =>
      // Already serialised (and, under vitest, checked against StatementReply): sent as it is, or in
      // the brotli or gzip form the caller accepts, made once per cached statement (decision 032).
      replyNegotiated(ready, request, reply, await getStatementBody(deps.db, sessionOf(request), request.query)),
  );
}
