import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SessionHeaders, StatementQuery, StatementReply, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sendCompressedOnce } from '../../http/compressed-once/index.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { inTurn, PacedBody, PACED_FROM_BYTES, SLICE_BYTES } from './paced-body.ts';
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
      // After the shared onSend hooks (compression's, the headers'): a big statement waits for a turn
      // of the event loop of its own, after other requests (decision 094). Same bytes and headers:
      // a body sent in slices says its length, as one sent at once does.
      onSend: (request, reply, payload, done) => {
        if (request.method !== 'GET' || !Buffer.isBuffer(payload) || payload.length < PACED_FROM_BYTES) return done(null, payload);
        if (payload.length <= SLICE_BYTES) return inTurn(() => done(null, payload));
        reply.header('content-length', String(payload.length));
        return done(null, new PacedBody(payload));
      },
    },
    // The statement is kept per ledger version (decision 044): written and compressed once per version (decision 056).
    async (request, reply) =>
      sendCompressedOnce(request, reply, await getStatement(deps.db, sessionOf(request), request.query), {
        brotliQuality: STATEMENT_BROTLI_QUALITY,
      }),
  );
}
