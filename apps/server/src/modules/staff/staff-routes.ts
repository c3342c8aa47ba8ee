import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PasskeyOptions } from '@rewards/contract/console';
import {
  consoleStaffPaths,
  InvitationRequest,
  RolesRequest,
  StaffIdParams,
  StaffMember,
  StaffMemberList,
  StaffReasonRequest,
  StepUpCodeRequest,
  StepUpPasskeyRequest,
  StepUpReply,
} from '@rewards/contract/console-staff';
import {
  disableStaff,
  enableStaff,
  inviteStaff,
  listStaffViews,
  staffView,
  resetStaffByMail,
  setStaffRoles,
  toStaffMember,
  type StaffActor,
} from './accounts.ts';
import { requireOwner, requireStaff, staffOf, type ConsoleOrigin } from './guard.ts';
import { documented } from './routes.ts';
import type { StaffContext } from './sign-in.ts';
import { stepUpPasskeyOptions, stepUpWithPasskey, stepUpWithRecoveryCode, stepUpWithTotp } from './step-up.ts';

/**
 * The console's staff management and step-up (issue 17, docs/decisions/049), registered inside
 * the console's plugin (routes.ts), so its gate (host, origin), cookie and no-store apply. The
 * rules are in accounts.ts and step-up.ts, shared with `rewards staff`; here is HTTP only.
 *
 * Step-up: any full session. Management: owners only (401 without a full session, 403 for
 * anyone else); every change besides needs a fresh second factor (403 with its own code, which
 * the console answers with a step-up) and a reason, and is audited as the owner, from their
 * address.
 */
export async function staffManagementRoutes(api: FastifyInstance, ctx: StaffContext, origin: ConsoleOrigin): Promise<void> {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  // The contract's path builders encode their argument: the routes take the parameter as it is.
  const byId = (suffix = '') => `${consoleStaffPaths.staff}/:staffId${suffix}`;
  const { db } = ctx;
  const staff = requireStaff(db, origin);
  const owner = requireOwner(db, origin);
  const actor = (request: FastifyRequest, reason: string): StaffActor => {
    const { staff: person } = staffOf(request);
    return { name: person.email, kind: 'staff', origin: request.ip, reason, staffId: person.id };
  };

  // ── step-up ──────────────────────────────────────────────────────────

  typed.post(
    consoleStaffPaths.stepUpTotp,
    {
      onRequest: staff,
      schema: {
        summary: "Step-up: a code of the authenticator app makes this session's second factor fresh for 5 minutes",
        body: StepUpCodeRequest,
        response: { 200: StepUpReply },
        ...documented('any staff'),
      },
    },
    async (request) => stepUpWithTotp(ctx, staffOf(request), request.body.code),
  );

  typed.post(
    consoleStaffPaths.stepUpRecoveryCode,
    {
      onRequest: staff,
      schema: {
        summary: "Step-up with a recovery code (each works once): this session's second factor fresh for 5 minutes",
        body: StepUpCodeRequest,
        response: { 200: StepUpReply },
        ...documented('any staff'),
      },
    },
    async (request) => stepUpWithRecoveryCode(ctx, staffOf(request), request.body.code),
  );

  typed.post(
    consoleStaffPaths.stepUpPasskeyOptions,
    {
      onRequest: staff,
      schema: {
        summary: "Passkey step-up, step 1: WebAuthn options naming the person's passkeys, with a challenge kept on the session",
        response: { 200: PasskeyOptions },
        ...documented('any staff'),
      },
    },
    async (request) => stepUpPasskeyOptions(ctx, staffOf(request)),
  );

  typed.post(
    consoleStaffPaths.stepUpPasskey,
    {
      onRequest: staff,
      schema: {
        summary: "Passkey step-up, step 2: the authenticator's answer makes this session's second factor fresh for 5 minutes",
        body: StepUpPasskeyRequest,
        response: { 200: StepUpReply },
        ...documented('any staff'),
      },
    },
    async (request) => stepUpWithPasskey(ctx, staffOf(request), request.body),
  );

  // ── staff management (owners) ────────────────────────────────────────

  typed.get(
    consoleStaffPaths.staff,
    {
      onRequest: owner,
      schema: {
        summary: 'Every staff member: status (invited, active, disabled), roles per client, second factors, last sign-in',
        response: { 200: StaffMemberList },
        ...documented('owner'),
      },
    },
    async () => (await listStaffViews(db)).map(toStaffMember),
  );

  typed.get(
    byId(),
    {
      onRequest: owner,
      schema: {
        summary: 'One staff member, as the list shows them',
        params: StaffIdParams,
        response: { 200: StaffMember },
        ...documented('owner'),
      },
    },
    async (request) => toStaffMember(await staffView(db, { id: request.params.staffId })),
  );

  typed.post(
    consoleStaffPaths.invitations,
    {
      onRequest: owner,
      schema: {
        summary:
          'Invite by mail: the person is created with the roles, and their single-use enrolment link is mailed to them through the outbox (never shown here). 409: the address is on staff already. Fresh second factor.',
        body: InvitationRequest,
        response: { 201: StaffMember },
        ...documented('owner', { freshSecondFactor: true }),
      },
    },
    async (request, reply) => {
      const { reason, ...input } = request.body;
      const { staff: view } = await inviteStaff(db, ctx.consoleOrigin, actor(request, reason), input);
      return reply.status(201).send(toStaffMember(view));
    },
  );

  typed.put(
    byId('/roles'),
    {
      onRequest: owner,
      schema: {
        summary:
          "Replace the roles per client (and the owner flag, if given). Not one's own owner flag; never the last active owner's. Fresh second factor.",
        params: StaffIdParams,
        body: RolesRequest,
        response: { 200: StaffMember },
        ...documented('owner', { freshSecondFactor: true }),
      },
    },
    async (request) => {
      const { reason, roles, owner: ownerFlag } = request.body;
      return toStaffMember(
        (await setStaffRoles(db, actor(request, reason), { id: request.params.staffId }, { roles, owner: ownerFlag })).staff,
      );
    },
  );

  typed.post(
    byId('/disable'),
    {
      onRequest: owner,
      schema: {
        summary:
          'Disable: no more sign-in, every session of the person ends at once. Not oneself; never the last active owner. Fresh second factor.',
        params: StaffIdParams,
        body: StaffReasonRequest,
        response: { 200: StaffMember },
        ...documented('owner', { freshSecondFactor: true }),
      },
    },
    async (request) => toStaffMember((await disableStaff(db, actor(request, request.body.reason), { id: request.params.staffId })).staff),
  );

  typed.post(
    byId('/enable'),
    {
      onRequest: owner,
      schema: {
        summary: 'Enable: may sign in again with the password and second factor they had. Fresh second factor.',
        params: StaffIdParams,
        body: StaffReasonRequest,
        response: { 200: StaffMember },
        ...documented('owner', { freshSecondFactor: true }),
      },
    },
    async (request) => toStaffMember((await enableStaff(db, actor(request, request.body.reason), { id: request.params.staffId })).staff),
  );

  typed.post(
    byId('/reset'),
    {
      onRequest: owner,
      schema: {
        summary:
          'Reset: password, TOTP, passkeys and recovery codes void, sessions ended, limits lifted, a new enrolment link mailed to the person. Not oneself. Fresh second factor.',
        params: StaffIdParams,
        body: StaffReasonRequest,
        response: { 200: StaffMember },
        ...documented('owner', { freshSecondFactor: true }),
      },
    },
    async (request) =>
      toStaffMember(
        (await resetStaffByMail(db, ctx.consoleOrigin, actor(request, request.body.reason), { id: request.params.staffId })).staff,
      ),
  );
}
