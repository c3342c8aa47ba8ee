import cookie from '@fastify/cookie';
import type { FastifyInstance, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONSOLE_API_BASE,
  ConsoleClient,
  ConsoleClientList,
  ConsoleClientParams,
  ENROLMENT_TOKEN_HEADER,
  EnrolmentHeaders,
  EnrolmentPasswordReply,
  EnrolmentPasswordRequest,
  EnrolmentTotpReply,
  EnrolmentView,
  PasskeyOptions,
  PasskeyRequest,
  STAFF_ROLES,
  StaffCodeRequest,
  StaffMe,
  StaffSignInReply,
  StaffSignInRequest,
  consolePaths,
  type StaffRole,
} from '@rewards/contract/console';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { confirmEnrolment, setEnrolmentPassword, viewEnrolment } from './enrolment.ts';
import { confirmEnrolmentWithPasskey, enrolmentPasskeyOptions, signInPasskeyOptions, signInWithPasskey } from './passkeys.ts';
import {
  clearConsoleCookie,
  consoleCookie,
  consoleGate,
  requireFreshSecondFactor,
  requireHalfSession,
  requireRole,
  requireStaff,
  setConsoleCookie,
  staffOf,
  type ConsoleOrigin,
} from './guard.ts';
import { endStaffSession, staffMe } from './sessions.ts';
import { signInWithPassword, signInWithRecoveryCode, signInWithTotp, type StaffContext } from './sign-in.ts';
import { hashSessionId } from '../sessions/session-id.ts';
import { clientForStaff, visibleClients } from './clients.ts';
import { consoleActionRoutes } from '../participants/console-actions-routes.ts';
import { consoleClientRoutes } from '../clients/console-routes.ts';
import { consoleSsoRoutes } from '../sso/console-routes.ts';
import { consoleCodesRoutes } from '../ots/console-routes.ts';
import { consoleContentRoutes } from '../content/console-routes.ts';
import { consoleTranslationRoutes } from '../i18n/console-routes.ts';
import { consoleReportRoutes } from '../reports/console-routes.ts';
import { consoleImportRoutes } from '../imports/console-routes.ts';
import { consoleWebhookRoutes } from '../webhooks/console-routes.ts';
import { consoleApiKeyRoutes } from '../api-keys/console-routes.ts';
import { consoleEarningRuleRoutes } from '../earning-rules/console-routes.ts';
import { consoleEventRoutes } from '../events/console-routes.ts';
import { consoleEventTypeRoutes } from '../events/types-console-routes.ts';
import { consoleReadRoutes } from '../participants/console-routes.ts';
import { staffManagementRoutes } from './staff-routes.ts';
import { staffOidcRoutes } from './oidc-routes.ts';
import { accountRoutes } from './account-routes.ts';
import { staffErrors } from './errors.ts';

/**
 * Who may call a console route, for the API document (`x-role`) and the reader; the guard in
 * the route's onRequest hook is what enforces it (before the body is read or validated: a
 * caller without the right gets 401/403, never a 400 that describes the body), and
 * modules/staff/authorization.test.ts holds the two together for every route.
 */
type Access = 'public' | 'enrolment link' | 'password passed' | 'any staff' | 'owner' | { roles: readonly StaffRole[] };

/**
 * The schema key of a route that needs a second factor passed within the last few minutes
 * (decision 077): every route that reveals a secret or widens what staff, a key or a partner may
 * do. Declared with `documented(access, { freshSecondFactor: true })`; the console's onRoute
 * hook below adds the check after the route's guard, so no handler has to remember it, and the
 * API document shows it.
 */
export const FRESH_SECOND_FACTOR = 'x-fresh-second-factor';

export function documented(access: Access, { freshSecondFactor = false }: { freshSecondFactor?: boolean } = {}) {
  const role =
    typeof access === 'string'
      ? access
      : access.roles.length === 0
        ? 'owner' // no role of a client may (single sign-on settings)
        : `owner, or ${access.roles.join(' | ')} of the client in the path`;
  const security = access === 'public' ? [] : access === 'enrolment link' ? [{ enrolmentToken: [] }] : [{ consoleSession: [] }];
  return { security, 'x-role': role, ...(freshSecondFactor ? { [FRESH_SECOND_FACTOR]: true as const } : {}), tags: ['Console'] };
}

/** `documented`, as the modules' console routes take it from here. */
export type Documented = typeof documented;

/** The check a FRESH_SECOND_FACTOR route runs after its guard: 403 (92009) for a factor older than allowed. */
const freshSecondFactorHook: onRequestAsyncHookHandler = async (request) => requireFreshSecondFactor(staffOf(request));

/** onRoute: a route that declares FRESH_SECOND_FACTOR gets the check after its guards (which must set the caller). */
function addFreshSecondFactorCheck(route: RouteOptions): void {
  if ((route.schema as Record<string, unknown> | undefined)?.[FRESH_SECOND_FACTOR] !== true) return;
  const guards = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
  if (guards.length === 0) throw new Error(`${String(route.method)} ${route.url}: a fresh second factor needs a session guard before it`);
  route.onRequest = [...guards, freshSecondFactorHook];
}

/**
 * The staff console's API (issue 17, docs/decisions/046) under /api/console/v1, answering only
 * on the console's host, with changes only from its own origin. Sign-in with a password then a
 * second factor; enrolment from a single-use link; the caller and their clients.
 */
export async function consoleRoutes(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const { db, config } = deps;
  const origin: ConsoleOrigin = config.console;
  const ctx: StaffContext = { db, limits: config.limits, dataDir: config.catalog.dataDir, consoleOrigin: origin.origin };

  await app.register(
    async (api) => {
      // The cookie parser only here: the participant API has no cookies to parse.
      await api.register(cookie);
      api.decorateRequest('staff', null);
      api.addHook('onRequest', consoleGate(origin));
      api.addHook('onRoute', addFreshSecondFactorCheck);
      api.addHook('onSend', (_request, reply, payload, done) => {
        reply.header('cache-control', 'no-store');
        done(null, payload);
      });
      const typed = api.withTypeProvider<ZodTypeProvider>();
      const staff = requireStaff(db, origin);
      const half = requireHalfSession(db, origin);
      const anyRole = requireRole(db, origin, (request) => (request.params as { clientId: string }).clientId, STAFF_ROLES);

      typed.post(
        consolePaths.signIn,
        {
          schema: {
            summary: 'Sign in with e-mail and password: a five-minute half session (cookie) that can only pass a second factor',
            body: StaffSignInRequest,
            response: { 200: StaffSignInReply },
            ...documented('public'),
          },
        },
        async (request, reply) => {
          // The installation's OpenID provider only (decision 068).
          if (!config.staffSignIn.password) throw staffErrors.passwordSignInOff();
          const { started, reply: body } = await signInWithPassword(ctx, request.ip, request.body);
          setConsoleCookie(reply, origin, started.sessionId, false);
          return body;
        },
      );

      typed.post(
        consolePaths.signInTotp,
        {
          onRequest: half,
          schema: {
            summary: 'Complete the sign-in with a code of the authenticator app: a full session under a new cookie',
            body: StaffCodeRequest,
            response: { 200: StaffMe },
            ...documented('password passed'),
          },
        },
        async (request, reply) => {
          const { started, me } = await signInWithTotp(ctx, staffOf(request), request.ip, request.body.code);
          setConsoleCookie(reply, origin, started.sessionId, true);
          return me;
        },
      );

      typed.post(
        consolePaths.signInRecoveryCode,
        {
          onRequest: half,
          schema: {
            summary: 'Complete the sign-in with a recovery code (each works once): a full session under a new cookie',
            body: StaffCodeRequest,
            response: { 200: StaffMe },
            ...documented('password passed'),
          },
        },
        async (request, reply) => {
          const { started, me } = await signInWithRecoveryCode(ctx, staffOf(request), request.ip, request.body.code);
          setConsoleCookie(reply, origin, started.sessionId, true);
          return me;
        },
      );

      typed.post(
        consolePaths.signInPasskeyOptions,
        {
          onRequest: half,
          schema: {
            summary: "Passkey sign-in, step 1: WebAuthn options naming the person's passkeys, with a challenge kept on the half session",
            response: { 200: PasskeyOptions },
            ...documented('password passed'),
          },
        },
        async (request) => signInPasskeyOptions(ctx, staffOf(request)),
      );

      typed.post(
        consolePaths.signInPasskey,
        {
          onRequest: half,
          schema: {
            summary: "Passkey sign-in, step 2: the authenticator's answer completes the sign-in: a full session under a new cookie",
            body: PasskeyRequest,
            response: { 200: StaffMe },
            ...documented('password passed'),
          },
        },
        async (request, reply) => {
          const { started, me } = await signInWithPasskey(ctx, staffOf(request), request.ip, request.body);
          setConsoleCookie(reply, origin, started.sessionId, true);
          return me;
        },
      );

      typed.post(
        consolePaths.signOut,
        {
          schema: {
            summary: 'Sign out: the session the cookie names ends, the cookie is cleared',
            response: { 204: z.undefined() },
            ...documented('public'),
          },
        },
        async (request, reply) => {
          const id = consoleCookie(request, origin);
          if (id) await endStaffSession(db, hashSessionId(id));
          clearConsoleCookie(reply, origin);
          return reply.status(204).send();
        },
      );

      typed.get(
        consolePaths.me,
        {
          onRequest: staff,
          schema: { summary: 'Who is signed in, with their roles per client', response: { 200: StaffMe }, ...documented('any staff') },
        },
        async (request) => {
          const { staff: person, session } = staffOf(request);
          return staffMe(db, person, session);
        },
      );

      typed.get(
        consolePaths.enrolment,
        {
          schema: {
            summary: 'Whom an enrolment link is for and its step (the token in the x-enrolment-token header, never in the URL)',
            headers: EnrolmentHeaders,
            response: { 200: EnrolmentView },
            ...documented('enrolment link'),
          },
        },
        async (request) => viewEnrolment(ctx, request.headers[ENROLMENT_TOKEN_HEADER]),
      );

      typed.post(
        consolePaths.enrolmentPassword,
        {
          schema: {
            summary: "Enrolment: set the password (the staff rules); returns the authenticator's secret and otpauth:// URI",
            headers: EnrolmentHeaders,
            body: EnrolmentPasswordRequest,
            response: { 200: EnrolmentPasswordReply },
            ...documented('enrolment link'),
          },
        },
        async (request) => setEnrolmentPassword(ctx, request.headers[ENROLMENT_TOKEN_HEADER], request.body.password),
      );

      typed.post(
        consolePaths.enrolmentTotp,
        {
          schema: {
            summary: 'Enrolment: confirm a code of the new secret; ends the link, returns ten recovery codes (shown once) and signs in',
            headers: EnrolmentHeaders,
            body: StaffCodeRequest,
            response: { 200: EnrolmentTotpReply },
            ...documented('enrolment link'),
          },
        },
        async (request, reply) => {
          const { started, recoveryCodes, me } = await confirmEnrolment(
            ctx,
            request.headers[ENROLMENT_TOKEN_HEADER],
            request.body.code,
            request.ip,
          );
          setConsoleCookie(reply, origin, started.sessionId, true);
          return { recoveryCodes, me };
        },
      );

      typed.post(
        consolePaths.enrolmentPasskeyOptions,
        {
          schema: {
            summary: 'Enrolment with a passkey instead of TOTP, step 1 (after the password): WebAuthn creation options',
            headers: EnrolmentHeaders,
            response: { 200: PasskeyOptions },
            ...documented('enrolment link'),
          },
        },
        async (request) => enrolmentPasskeyOptions(ctx, request.headers[ENROLMENT_TOKEN_HEADER]),
      );

      typed.post(
        consolePaths.enrolmentPasskey,
        {
          schema: {
            summary:
              'Enrolment with a passkey, step 2: the new credential ends the link, returns ten recovery codes (shown once) and signs in',
            headers: EnrolmentHeaders,
            body: PasskeyRequest,
            response: { 200: EnrolmentTotpReply },
            ...documented('enrolment link'),
          },
        },
        async (request, reply) => {
          const { started, recoveryCodes, me } = await confirmEnrolmentWithPasskey(
            ctx,
            request.headers[ENROLMENT_TOKEN_HEADER],
            request.body,
            request.ip,
          );
          setConsoleCookie(reply, origin, started.sessionId, true);
          return { recoveryCodes, me };
        },
      );

      typed.get(
        consolePaths.clients,
        {
          onRequest: staff,
          schema: {
            summary: 'The clients the caller may see (an owner: all), with their role in each',
            response: { 200: ConsoleClientList },
            ...documented('any staff'),
          },
        },
        async (request) => visibleClients(db, staffOf(request).staff),
      );

      typed.get(
        `${consolePaths.clients}/:clientId`,
        {
          onRequest: anyRole,
          schema: {
            summary: "One client, with the caller's role in it",
            params: ConsoleClientParams,
            response: { 200: ConsoleClient },
            ...documented({ roles: STAFF_ROLES }),
          },
        },
        async (request) => clientForStaff(db, staffOf(request).staff, request.params.clientId),
      );

      consoleActionRoutes(api, deps, origin, documented);
      consoleClientRoutes(api, db, origin, documented);
      consoleSsoRoutes(api, db, ctx.dataDir, origin, documented); // part H: single sign-on settings
      consoleCodesRoutes(api, db, origin, documented);
      consoleTranslationRoutes(api, db, origin, documented); // issue 20 §4: translations and content
      consoleContentRoutes(api, db, origin, documented);
      consoleReportRoutes(api, db, origin, documented);
      consoleImportRoutes(api, db, origin, documented);
      consoleWebhookRoutes(api, deps, origin, documented); // issue 29 §3: webhooks (decision 084)
      consoleApiKeyRoutes(api, db, origin, documented); // issue 29 §1: API keys
      consoleEarningRuleRoutes(api, db, origin, documented); // issue 32 §2: earning rules (decision 096)
      consoleEventRoutes(api, db, origin, documented); // issue 32 §1: a participant's events (decision 097)
      consoleEventTypeRoutes(api, db, origin, documented); // issue 32 §1: declared event types (decision 100)
      await consoleReadRoutes(api, deps, origin);
      await staffManagementRoutes(api, ctx, origin);
      staffOidcRoutes(api, ctx, origin, config.staffSignIn, documented);
      accountRoutes(api, ctx, origin); // decision 070: your account
    },
    { prefix: CONSOLE_API_BASE },
  );
}
