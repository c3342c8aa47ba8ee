import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ExpiryScheduleReply, SessionHeaders, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { getExpirySchedule } from './schedule.ts';

/** GET user/points/expiring (issue 19): its own call, so that the spec's statement keeps its shape. */
export function expiryRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    apiPaths.expirySchedule,
    {
      preHandler: deps.requireSession,
      schema: {
        summary: "What of the participant's balance expires when, over the coming twelve months, soonest first",
        tags: ['Activity'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        response: { 200: ExpiryScheduleReply },
      },
    },
    async (request) => getExpirySchedule(deps.db, sessionOf(request)),
  );
}
