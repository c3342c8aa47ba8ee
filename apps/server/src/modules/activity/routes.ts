import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SessionHeaders, StatementQuery, StatementReply, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sendCompressedOnce } from '../../http/compressed-once/index.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { getStatement, STATEMENT_BROTLI_QUALITY } from './service.ts';

/** The statement path without its query string (the contract's helper builds the full URL). */
const statementPath = apiPaths.statement('', '').split('?')[0] ?? '/user/account/statement';

/** GET user/account/statement (issue 5, section 1). */
export function activityRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
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
    // The statement is kept per ledger version (decision 044): written and compressed once per version (decision 056).
    async (request, reply) =>
      sendCompressedOnce(request, reply, await getStatement(deps.db, sessionOf(request), request.query), {
        brotliQuality: STATEMENT_BROTLI_QUALITY,
      }),
  );
}
