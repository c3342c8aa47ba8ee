import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ssoPaths } from '@rewards/contract';
import { z } from 'zod';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { beginLogin, completeLogin, failureRoutes, logoutLocation, type SsoContext, type SsoOutcome } from './service.ts';
import { BINDING_COOKIE, cookieOf, SIGNOUT_COOKIE, ssoCookie } from './signout-cookie.ts';

const Redirect = z.null().describe('302 to the provider or to a portal page (Location header)');
const CallbackQuery = z.object({
  state: z.string().max(500).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
});

/** The site's origin as the browser sees it (protocol honours TRUST_PROXY): where the provider sends it back. */
function siteOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function bindingCookieOf(request: FastifyRequest): string | undefined {
  return cookieOf(request, BINDING_COOKIE);
}

function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  return ssoCookie(request, BINDING_COOKIE, value, maxAgeSeconds);
}

/** Where a navigation ends when the portal itself fails: a screen, not a JSON error. */
async function orFailureScreen(request: FastifyRequest, reply: FastifyReply, step: string, work: () => Promise<FastifyReply>) {
  try {
    return await work();
  } catch (error) {
    request.log.error({ err: error, clientId: request.clientId, step }, 'single sign-on failed');
    if (step === 'callback') request.signInOutcome = 'error';
    return reply.header('cache-control', 'no-store').redirect(failureRoutes.profile, 302);
  }
}

/** Sends the browser on; a refusal is logged for the operator (never a token, code or secret). */
function follow(request: FastifyRequest, reply: FastifyReply, outcome: SsoOutcome, step: string) {
  if (outcome.refused) {
    request.log.warn(
      { clientId: request.clientId, step, reason: outcome.refused.reason, ...outcome.refused.detail },
      'single sign-on refused',
    );
  }
  return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
}

/**
 * Single sign-on with OpenID Connect (issue 9, docs/decisions/024): sso/login, sso/callback,
 * sso/logout. Browser navigations: the client comes from the Host (client-context.ts).
 */
export function ssoRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const ctx: SsoContext = { db: deps.db, dataDir: deps.config.catalog.dataDir, sessionPolicy: deps.sessionPolicy };

  typed.get(
    ssoPaths.login,
    {
      schema: {
        summary: "Single sign-on: send the browser to the client's identity provider (a browser navigation; the client is the Host)",
        response: { 302: Redirect },
      },
    },
    async (request, reply) =>
      orFailureScreen(request, reply, 'login', async () => {
        const outcome = await beginLogin(ctx, request.clientId, siteOrigin(request));
        if (outcome.browserBinding) reply.header('set-cookie', cookie(request, outcome.browserBinding, 600));
        return follow(request, reply, outcome, 'login');
      }),
  );

  typed.get(
    ssoPaths.callback,
    {
      schema: {
        summary:
          "Single sign-on: the provider's return; redirects to /sso-authenticated?JSESSIONID=… (good once, one minute) or a failure screen",
        querystring: CallbackQuery,
        response: { 302: Redirect },
      },
    },
    async (request, reply) =>
      orFailureScreen(request, reply, 'callback', async () => {
        const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
        const outcome = await completeLogin(ctx, request.clientId, {
          search: rawQuery,
          state: request.query.state,
          error: request.query.error,
          browserBinding: bindingCookieOf(request),
        });
        reply.header('set-cookie', cookie(request, '', 0));
        request.signInOutcome = outcome.refused ? 'failure' : 'success';
        return follow(request, reply, outcome, 'callback');
      }),
  );

  typed.get(
    ssoPaths.logout,
    {
      schema: {
        summary:
          "Single sign-on: end the session at the provider (with id_token_hint when the portal's sign-out kept one), then go to the client's site",
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      const hint = cookieOf(request, SIGNOUT_COOKIE);
      // Used once, whatever happens next.
      if (hint !== undefined) reply.header('set-cookie', ssoCookie(request, SIGNOUT_COOKIE, '', 0));
      return follow(request, reply, await logoutLocation(ctx, request.clientId, hint), 'logout');
    },
  );
}
