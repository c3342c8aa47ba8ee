import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClientHeaders, LoginRequest, SESSION_HEADER, SessionHeaders, UserData, apiPaths } from '@rewards/contract';
import { z } from 'zod';
import { keepSignOutHint, SIGNOUT_TTL_MS } from '../sso/service.ts';
import { SIGNOUT_COOKIE, ssoCookie } from '../sso/signout-cookie.ts';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { login, logout, type LoginContext } from './service.ts';

export function authRoutes(app: FastifyInstance, { db, sessionPolicy, config }: ModuleDeps): void {
  const ctx: LoginContext = { db, sessionPolicy, limits: config.limits };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    apiPaths.login,
    {
      schema: {
        summary: 'Sign in with username and password; the reply carries the session id',
        tags: ['Sign-in'],
        headers: ClientHeaders,
        body: LoginRequest,
        response: { 200: UserData },
      },
    },
    async (request, reply) => {
      const user = await login(ctx, request.clientId, request.ip, request.body);
      // The new session id also travels in the header every later call sends it back in.
      reply.header(SESSION_HEADER, user.sessionId);
      return user;
    },
  );

  // Ending a session that is already gone is still a successful sign-out.
  typed.get(
    apiPaths.logout,
    {
      schema: {
        summary: 'End the session sent (also when it has already ended)',
        tags: ['Sign-in'],
        headers: SessionHeaders,
        response: { 204: z.undefined() },
      },
    },
    async (request, reply) => {
      const sessionId = request.headers[SESSION_HEADER];
      // A session single sign-on started hands its ID token on to sso/logout (decision 038).
      const hint = await keepSignOutHint(ctx.db, request.clientId, sessionId);
      if (hint) reply.header('set-cookie', ssoCookie(request, SIGNOUT_COOKIE, hint, SIGNOUT_TTL_MS / 1000));
      await logout(ctx.db, request.clientId, sessionId);
      return reply.status(204).send();
    },
  );
}
