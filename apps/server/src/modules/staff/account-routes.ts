import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  consoleAccountPaths as paths,
  PasskeyOptions,
  PasskeyRequest,
  StaffAccount,
  StaffPasskeyParams,
  StaffPasswordChangeReply,
  StaffPasswordChangeRequest,
  StaffRecoveryCodesReply,
  StaffTotpConfirmRequest,
  StaffTotpSecretReply,
} from '@rewards/contract/console';
import { requireStaff, staffOf, type ConsoleOrigin } from './guard.ts';
import {
  addOwnPasskey,
  changeOwnPassword,
  confirmOwnTotp,
  newOwnTotpSecret,
  ownPasskeyOptions,
  removeOwnPasskey,
  renewOwnRecoveryCodes,
  viewOwnAccount,
} from './own-account.ts';
import { documented } from './routes.ts';
import type { StaffContext } from './sign-in.ts';

/**
 * "Your account" (docs/decisions/070), inside the console's plugin (routes.ts): any full
 * session, on the session's own person only (no id of a person in a path). The password change
 * asks for the current password; the second factors' changes ask for a fresh second factor, as
 * staff management does (the console answers the 403 with its step-up). Rules in own-account.ts.
 */
export function accountRoutes(api: FastifyInstance, ctx: StaffContext, origin: ConsoleOrigin): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const staff = requireStaff(ctx.db, origin);

  typed.get(
    paths.account,
    {
      onRequest: staff,
      schema: {
        summary: 'Your account: a password here or not, the authenticator app, passkeys with their dates, recovery codes left (a count)',
        response: { 200: StaffAccount },
        ...documented('any staff'),
      },
    },
    async (request) => viewOwnAccount(ctx, staffOf(request)),
  );

  typed.put(
    paths.password,
    {
      onRequest: staff,
      schema: {
        summary:
          'Change your password: the current one (limited like the sign-in) and a new one under the staff rules; your other sessions end, this one stays. 409: the account has no password here (OpenID provider only).',
        body: StaffPasswordChangeRequest,
        response: { 200: StaffPasswordChangeReply },
        ...documented('any staff'),
      },
    },
    async (request) => changeOwnPassword(ctx, staffOf(request), request.ip, request.body),
  );

  typed.post(
    paths.recoveryCodes,
    {
      onRequest: staff,
      schema: {
        summary: 'Ten new recovery codes replace all of yours, returned this once. Fresh second factor.',
        response: { 200: StaffRecoveryCodesReply },
        ...documented('any staff', { freshSecondFactor: true }),
      },
    },
    async (request) => renewOwnRecoveryCodes(ctx, staffOf(request), request.ip),
  );

  typed.post(
    paths.passkeyOptions,
    {
      onRequest: staff,
      schema: {
        summary:
          'Add a passkey, step 1: WebAuthn creation options excluding your passkeys, the challenge kept on the session. Fresh second factor.',
        response: { 200: PasskeyOptions },
        ...documented('any staff', { freshSecondFactor: true }),
      },
    },
    async (request) => ownPasskeyOptions(ctx, staffOf(request)),
  );

  typed.post(
    paths.passkeys,
    {
      onRequest: staff,
      schema: {
        summary: "Add a passkey, step 2: the authenticator's new credential becomes yours. Fresh second factor.",
        body: PasskeyRequest,
        response: { 201: StaffAccount },
        ...documented('any staff', { freshSecondFactor: true }),
      },
    },
    async (request, reply) => reply.status(201).send(await addOwnPasskey(ctx, staffOf(request), request.ip, request.body)),
  );

  typed.delete(
    `${paths.passkeys}/:passkeyId`,
    {
      onRequest: staff,
      schema: {
        summary:
          'Remove one of your passkeys, only while the authenticator app or another passkey remains (409 otherwise). Fresh second factor.',
        params: StaffPasskeyParams,
        response: { 200: StaffAccount },
        ...documented('any staff', { freshSecondFactor: true }),
      },
    },
    async (request) => removeOwnPasskey(ctx, staffOf(request), request.ip, request.params.passkeyId),
  );

  typed.post(
    paths.totpSecret,
    {
      onRequest: staff,
      schema: {
        summary:
          'Set up an authenticator app, step 1 (none set up yet, else 409): a new secret, its otpauth:// URI, and the secret sealed for step 2. Fresh second factor.',
        response: { 200: StaffTotpSecretReply },
        ...documented('any staff', { freshSecondFactor: true }),
      },
    },
    async (request) => newOwnTotpSecret(ctx, staffOf(request)),
  );

  typed.post(
    paths.totp,
    {
      onRequest: staff,
      schema: {
        summary:
          "Set up an authenticator app, step 2: a code of the sealed secret (limited like the sign-in's codes) makes it yours. Fresh second factor.",
        body: StaffTotpConfirmRequest,
        response: { 200: StaffAccount },
        ...documented('any staff', { freshSecondFactor: true }),
      },
    },
    async (request) => confirmOwnTotp(ctx, staffOf(request), request.ip, request.body),
  );
}
