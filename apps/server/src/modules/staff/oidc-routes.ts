import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSOLE_API_BASE, StaffOidcStartQuery, StaffSignInMethods, consolePaths } from '@rewards/contract/console';
import type { Config } from '../../config.ts';
import { consoleCookie, setConsoleCookie, type ConsoleOrigin } from './guard.ts';
import { beginOidcSignIn, completeOidcSignIn, signInMethods, type OidcOutcome, type OidcStepUp } from './oidc.ts';
import { resumeStaffSession } from './sessions.ts';
import type { Documented } from './routes.ts';
import type { StaffContext } from './sign-in.ts';

/** The cookie that binds a sign-in at the provider to the browser that started it (login CSRF). */
const BINDING_COOKIE = 'rewards_console_oidc';
const BINDING_PATH = `${CONSOLE_API_BASE}${consolePaths.signInOidc}`;

function bindingCookie(reply: FastifyReply, site: ConsoleOrigin, value: string, maxAge: number): void {
  // Lax, not Strict: it must come back on the provider's redirect, a cross-site navigation.
  reply.setCookie(BINDING_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    path: BINDING_PATH,
    secure: site.origin.startsWith('https:'),
    maxAge,
  });
}

const Redirect = z.null().describe('302 to the provider, to the console, or to its sign-in page with ?oidc=<outcome> (Location header)');

const CallbackQuery = z.looseObject({ state: z.string().max(500).optional(), error: z.string().max(500).optional() });

/**
 * Staff sign-in through the installation's OpenID provider (issue 20 §6, docs/decisions/068):
 * what the sign-in page offers, the start (a redirect to the provider) and the callback (a
 * redirect to the console, with the session cookie when someone got in). Navigations, so GETs:
 * the console's gate lets them through from anywhere, as it lets any GET.
 */
export function staffOidcRoutes(
  api: FastifyInstance,
  ctx: StaffContext,
  site: ConsoleOrigin,
  signIn: Config['staffSignIn'],
  documented: Documented,
): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const follow = (reply: FastifyReply, outcome: OidcOutcome, log: (detail: Record<string, unknown>, message: string) => void) => {
    if (outcome.refused)
      log({ reason: outcome.refused.reason, ...outcome.refused.detail }, 'staff sign-in through the OpenID provider refused');
    return reply.redirect(outcome.location, 302);
  };

  typed.get(
    consolePaths.signInMethods,
    {
      schema: {
        summary: "How staff sign in here: the password (then a second factor) and/or the installation's OpenID provider",
        response: { 200: StaffSignInMethods },
        ...documented('public'),
      },
    },
    async () => signInMethods(signIn),
  );

  typed.get(
    consolePaths.signInOidc,
    {
      schema: {
        summary:
          "Sign in through the installation's OpenID provider: a redirect there (fresh=1: it authenticates the person again; with a full session, a step-up that comes back to `return`)",
        querystring: StaffOidcStartQuery,
        response: { 302: Redirect },
        ...documented('public'),
      },
    },
    async (request, reply) => {
      const fresh = request.query.fresh === '1';
      // Fresh, from a full session: a step-up of that session (decision 068, amended), not a new sign-in.
      // The start is a navigation from the console's own page, so the SameSite=Strict cookie comes along.
      let stepUp: OidcStepUp | undefined;
      const cookie = fresh ? consoleCookie(request, site) : undefined;
      const live = cookie ? await resumeStaffSession(ctx.db, cookie) : undefined;
      if (live?.full) stepUp = { sessionHash: live.session.id_hash, returnTo: request.query.return ?? '/console/' };
      const begun = await beginOidcSignIn(ctx, signIn.oidc, fresh, new Date(), stepUp);
      if (begun.browserBinding) bindingCookie(reply, site, begun.browserBinding, 600);
      return follow(reply, begun, (detail, message) => request.log.warn(detail, message));
    },
  );

  typed.get(
    consolePaths.signInOidcCallback,
    {
      schema: {
        summary:
          "The provider's redirect back: a console session (full with the provider's second factor, else half) or the sign-in page with the reason; after a step-up, the page it came from with ?stepUp=<outcome>",
        querystring: CallbackQuery,
        response: { 302: Redirect },
        ...documented('public'),
      },
    },
    async (request, reply) => {
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      const outcome = await completeOidcSignIn(
        ctx,
        signIn.oidc,
        { search, state: request.query.state, error: request.query.error, browserBinding: request.cookies[BINDING_COOKIE] },
        request.ip,
      );
      bindingCookie(reply, site, '', 0);
      if (outcome.started) setConsoleCookie(reply, site, outcome.started.sessionId, outcome.full === true);
      if (!outcome.stepUp) request.signInOutcome = outcome.started ? 'success' : 'failure';
      return follow(reply, outcome, (detail, message) => request.log.warn(detail, message));
    },
  );
}
