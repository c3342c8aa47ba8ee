import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AcceptedReply,
  ActivateRequest,
  ClientHeaders,
  ForgotPasswordRequest,
  ForgotUsernameRequest,
  SESSION_HEADER,
  SavePasswordReply,
  SavePasswordRequest,
  UserData,
  apiPaths,
} from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { findClient } from '../clients/service.ts';
import { activate, forgotPassword, forgotUsername, savePassword, type AccountContext, type RecoveryCaller } from './service.ts';

/**
 * The request's client, that client's portal address and default locale, and the caller's
 * address. Links in mails start at the configured portal address, never at the client-id the
 * caller wrote (decision 041).
 */
async function callerOf(db: Db, request: FastifyRequest): Promise<RecoveryCaller> {
  const client = await findClient(db, request.clientId);
  if (!client) throw errors.unknownClient();
  return { clientId: request.clientId, portalUrl: client.portal_url, address: request.ip, defaultLocale: client.default_locale };
}

/** POST activate, forgotUsername, forgotPassword, savePassword (issue 7; docs/decisions/018). */
export function accountRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ctx: AccountContext = {
    db: deps.db,
    sessionPolicy: deps.sessionPolicy,
    limits: deps.config.limits,
    resetLinkMinutes: deps.config.account.resetLinkMinutes,
  };

  typed.post(
    apiPaths.activate,
    {
      schema: {
        summary: 'Activate an account (first sign-in): signs in on success',
        tags: ['Account'],
        headers: ClientHeaders,
        body: ActivateRequest,
        response: { 200: UserData },
      },
    },
    async (request, reply) => {
      const user = await activate(ctx, await callerOf(deps.db, request), request.body);
      // Signed in, like sign-in: the new session id travels in the header too.
      reply.header(SESSION_HEADER, user.sessionId);
      return user;
    },
  );

  typed.post(
    apiPaths.forgotUsername,
    {
      schema: {
        summary: 'Mail the username to the address on file (same reply whether or not it matches)',
        tags: ['Account'],
        headers: ClientHeaders,
        body: ForgotUsernameRequest,
        response: { 200: AcceptedReply },
      },
    },
    async (request) => forgotUsername(ctx, await callerOf(deps.db, request), request.body),
  );

  typed.post(
    apiPaths.forgotPassword,
    {
      schema: {
        summary: 'Mail a link to set a new password (same reply whether or not it matches)',
        tags: ['Account'],
        headers: ClientHeaders,
        body: ForgotPasswordRequest,
        response: { 200: AcceptedReply },
      },
    },
    async (request) => forgotPassword(ctx, await callerOf(deps.db, request), request.body),
  );

  typed.post(
    apiPaths.savePassword,
    {
      schema: {
        summary: 'Set a new password with the mailed link',
        tags: ['Account'],
        headers: ClientHeaders,
        body: SavePasswordRequest,
        response: { 200: SavePasswordReply },
      },
    },
    async (request) => savePassword(ctx, await callerOf(deps.db, request), request.body),
  );
}
