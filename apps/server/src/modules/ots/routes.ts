import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OtsRedeemReply, OtsRedeemRequest, SessionHeaders, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { redeemOtsCode } from './service.ts';

/** POST ots/redeem (issue 5, section 2). */
export function otsRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ctx = { db: deps.db, limits: deps.config.limits };

  typed.post(
    apiPaths.otsRedeem,
    {
      preHandler: deps.requireSession,
      schema: {
        summary: 'Redeem an on-the-spot code for points',
        tags: ['On-the-spot codes'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        body: OtsRedeemRequest,
        response: { 200: OtsRedeemReply },
      },
    },
    async (request) => redeemOtsCode(ctx, sessionOf(request), request.body),
  );
}
