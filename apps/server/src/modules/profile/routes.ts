import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ChangePasswordReply, ChangePasswordRequest, SessionHeaders, apiPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { sessionOf } from '../sessions/session-guard.ts';
import { changePassword } from './service.ts';

/** PUT user/password (issue 5, section 5). The language change is POST user/locale (participants). */
export function profileRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ctx = { db: deps.db, limits: deps.config.limits };

  typed.put(
    apiPaths.userPassword,
    {
      preHandler: deps.requireSession,
      schema: {
        summary: 'Change the password (the current one is asked again)',
        tags: ['Profile'],
        security: [{ session: [] }],
        headers: SessionHeaders,
        body: ChangePasswordRequest,
        response: { 200: ChangePasswordReply },
      },
    },
    async (request) => changePassword(ctx, sessionOf(request), request.ip, request.body),
  );
}
