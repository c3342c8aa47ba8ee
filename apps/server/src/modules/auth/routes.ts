import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginRequest, SESSION_HEADER, UserData, apiPaths } from '@rewards/contract';
import { login, logout, type LoginContext } from './service.ts';

export function authRoutes(app: FastifyInstance, ctx: LoginContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    apiPaths.login,
    { schema: { body: LoginRequest, response: { 200: UserData } } },
    async (request) => login(ctx, request.clientId, request.ip, request.body),
  );

  // Ending a session that is already gone is still a successful sign-out.
  typed.get(apiPaths.logout, async (request, reply) => {
    const header = request.headers[SESSION_HEADER];
    await logout(ctx.db, request.clientId, typeof header === 'string' && header.length <= 100 ? header : undefined);
    return reply.status(204).send();
  });
}
