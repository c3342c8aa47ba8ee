import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ActionReply,
  AdjustmentReply,
  AdjustmentRequest,
  ConsoleClientSettings,
  ConsoleClientSettingsRequest,
  ConsoleParticipantParams,
  DetailsRequest,
  LaunchAsReply,
  LaunchAsRequest,
  ReasonRequest,
  ResendMailRequest,
  StatusRequest,
  consoleParticipantPaths as paths,
} from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';
import type { Client } from '../clients/tables.ts';
import type { Participant } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { consoleSettings, setAgentDailyLimit } from '../clients/console-settings.ts';
import { findClient } from '../clients/service.ts';
import { issueFromConsole } from '../launch-as/service.ts';
import { adjustPoints, currentAgentDailyLimit } from '../ledger/adjustments.ts';
import { requireFreshSecondFactor, requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import type { LiveStaffSession } from '../staff/sessions.ts';
import { roleIn } from '../staff/roles.ts';
import { actionErrors } from './action-errors.ts';
import { changeStatus, endSessions, parseStatus, resendMail, unlock } from './actions.ts';
import { correctParticipant, emailChangeHoldUntil, type Actor, type ParticipantChanges } from './operator-service.ts';
import { findParticipant } from './store.ts';
import type { Documented } from '../staff/routes.ts';

/** Who may act on a participant: a program manager or a support agent of the client (and an owner); an auditor only reads. */
const ACTING: readonly StaffRole[] = ['program_manager', 'support_agent'];
const MANAGING: readonly StaffRole[] = ['program_manager'];

/** Path parameters of the client settings. */
const ClientParams = ConsoleParticipantParams.pick({ clientId: true });
/** PUT settings answers with the settings as they now are and the audit entry (null: unchanged, nothing written). */
const ConsoleClientSettingsReply = ConsoleClientSettings.extend({ auditId: z.string().nullable() });

/** Route path as Fastify reads it, from the contract's path builders (which encode the ':' of a parameter). */
const settingsPattern = paths.settings(':clientId').replaceAll('%3A', ':');
const pattern = (build: (clientId: string, participantId: string) => string) => build(':clientId', ':participantId').replaceAll('%3A', ':');

/**
 * The console's participant actions and client settings (issue 17 section 3, docs/decisions/048),
 * inside the console plugin of modules/staff/routes.ts (its host, origin and cookie checks).
 * HTTP only: each route checks the role, then calls the same service the `rewards` commands
 * call, with the staff member as the actor (their e-mail, 'staff', the request's address).
 */
export function consoleActionRoutes(api: FastifyInstance, deps: ModuleDeps, site: ConsoleOrigin, documented: Documented): void {
  const { db, config } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const acting = requireRole(db, site, clientIdOf, ACTING);
  const managing = requireRole(db, site, clientIdOf, MANAGING);
  const anyRole = requireRole(db, site, clientIdOf, STAFF_ROLES);
  const actorOf = (request: FastifyRequest): Actor => ({ name: staffOf(request).staff.email, kind: 'staff', origin: request.ip });
  const accountContext = {
    db,
    sessionPolicy: deps.sessionPolicy,
    limits: config.limits,
    resetLinkMinutes: config.account.resetLinkMinutes,
  };
  const actionDoc = <B extends z.ZodType>(summary: string, body: B) => ({
    summary,
    params: ConsoleParticipantParams,
    body,
    response: { 200: ActionReply },
    ...documented({ roles: ACTING }),
  });

  typed.post(
    pattern(paths.launchAs),
    {
      onRequest: acting,
      schema: {
        summary:
          "Launch-as: a single-use link (2 minutes) to the participant's portal on the client's own address, opening a read-only session; audited",
        params: ConsoleParticipantParams,
        body: LaunchAsRequest,
        response: { 200: LaunchAsReply },
        ...documented({ roles: ACTING }),
      },
    },
    async (request) => {
      const { client, participant } = await target(db, request.params);
      const issued = await issueFromConsole(
        db,
        { email: staffOf(request).staff.email, address: request.ip },
        client.portal_url,
        participant,
        request.body.reason,
      );
      return { url: issued.url, expiresAt: issued.expiresAt };
    },
  );

  typed.post(
    pattern(paths.adjustments),
    {
      onRequest: acting,
      schema: {
        summary:
          "Credit or debit points with a text the participant reads and an internal note; once per requestId; a support agent within the client's daily limit, others past it after a fresh second factor",
        params: ConsoleParticipantParams,
        body: AdjustmentRequest,
        response: { 200: AdjustmentReply },
        ...documented({ roles: ACTING }),
      },
    },
    async (request) => {
      const live = staffOf(request);
      const { client, participant } = await target(db, request.params);
      const agent = (await callerRole(db, live, client.id)) === 'support_agent';
      const { points, participantText, internalNote, requestId } = request.body;
      // Program managers and owners are not capped, but a large adjustment needs a second factor passed just
      // now. The limit as stored now, not as cached with the client (decision 078).
      if (!agent && Math.abs(points) > (await currentAgentDailyLimit(db, client.id))) requireFreshSecondFactor(live);
      const done = await adjustPoints(
        db,
        actorOf(request),
        participant,
        { points, participantText, internalNote, reason: internalNote, requestId },
        agent ? { agentCap: { staffId: live.staff.id } } : {},
      );
      return { entryId: done.entryId, balance: done.balance, agentLimitLeft: done.agentLimitLeft };
    },
  );

  typed.post(
    pattern(paths.status),
    {
      onRequest: acting,
      schema: actionDoc(
        'Set the status (active, inactive; pending only while not yet activated); inactive ends every session',
        StatusRequest,
      ),
    },
    async (request) => {
      const { participant } = await target(db, request.params);
      const done = await changeStatus(db, actorOf(request), participant, parseStatus(request.body.status), request.body.reason);
      if (!done.auditId) throw actionErrors.nothingToChange(participant.username, done.to);
      return { auditId: done.auditId };
    },
  );

  typed.post(
    pattern(paths.unlock),
    {
      onRequest: acting,
      schema: actionDoc('Clear every attempt limit on the participant (sign-in, codes, activation, reset)', ReasonRequest),
    },
    async (request) => {
      const { participant } = await target(db, request.params);
      return { auditId: (await unlock(db, config.limits, actorOf(request), participant, request.body.reason)).auditId };
    },
  );

  typed.post(
    pattern(paths.endSessions),
    { onRequest: acting, schema: actionDoc('Sign the participant out everywhere (launched sessions too)', ReasonRequest) },
    async (request) => {
      const { participant } = await target(db, request.params);
      return { auditId: (await endSessions(db, actorOf(request), participant, request.body.reason)).auditId };
    },
  );

  typed.post(
    pattern(paths.resendMail),
    {
      onRequest: acting,
      schema: actionDoc(
        'Resend the activation invitation (pending participants) or a password-reset link (the others), under the account limits; within 24 hours of staff changing the address only a program manager or an owner, with a fresh second factor',
        ResendMailRequest,
      ),
    },
    async (request) => {
      const live = staffOf(request);
      const { client, participant } = await target(db, request.params);
      // Within 24 hours of staff changing the address, a program manager or an owner confirms it with a
      // fresh second factor; an agent is refused by the service (decision 076).
      const confirmer = (await callerRole(db, live, client.id)) !== 'support_agent';
      if (confirmer && emailChangeHoldUntil(participant)) requireFreshSecondFactor(live);
      return resendMail(accountContext, actorOf(request), client, participant, request.body.mail, request.body.reason, {
        confirmedRecentEmailChange: confirmer,
      });
    },
  );

  typed.post(
    pattern(paths.details),
    {
      onRequest: acting,
      schema: actionDoc(
        'Correct names, e-mail address and account number, by the rules of an import line; the audit names the changed fields. A new e-mail address takes a fresh second factor and is told to the old address',
        DetailsRequest,
      ),
    },
    async (request) => {
      const { client, participant } = await target(db, request.params);
      const { reason, ...given } = request.body;
      // A new address is where reset links go: every role passes a second factor just now (decision 076).
      if (given.email !== undefined && given.email.trim().toLowerCase() !== participant.email.toLowerCase())
        requireFreshSecondFactor(staffOf(request));
      const changes: ParticipantChanges = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
      if (Object.keys(changes).length === 0)
        throw errors.validation('Nothing to change: give at least one of firstName, lastName, email, accountNumber');
      const done = await correctParticipant(db, actorOf(request), client, participant, changes, reason);
      if (!done.auditId) throw actionErrors.nothingToChange(participant.username);
      return { auditId: done.auditId };
    },
  );

  typed.get(
    settingsPattern,
    {
      onRequest: anyRole,
      schema: {
        summary: "The client's console settings: the agents' daily adjustment limit",
        params: ClientParams,
        response: { 200: ConsoleClientSettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => consoleSettings(db, request.params.clientId),
  );

  typed.put(
    settingsPattern,
    {
      onRequest: managing,
      schema: {
        summary:
          "Set the agents' daily adjustment limit (points, credits and debits together, per agent per day UTC), with a fresh second factor and a reason; audited",
        params: ClientParams,
        body: ConsoleClientSettingsRequest,
        response: { 200: ConsoleClientSettingsReply },
        // The limit is what lets an agent post without a step-up (decision 077).
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request) => {
      const done = await setAgentDailyLimit(
        db,
        actorOf(request),
        request.params.clientId,
        request.body.agentDailyAdjustmentLimit,
        request.body.reason,
      );
      return { agentDailyAdjustmentLimit: done.to, auditId: done.auditId };
    },
  );
}

/** The client and participant a path names; 404 when either is unknown (the role was checked first). */
async function target(db: Db, params: { clientId: string; participantId: string }): Promise<{ client: Client; participant: Participant }> {
  const client = await findClient(db, params.clientId);
  const participant = client ? await findParticipant(db, client.id, params.participantId) : undefined;
  if (!client || !participant) throw errors.notFound();
  return { client, participant };
}

/** The caller's role in the client; an owner acts as the whole installation (null), never as a capped agent. */
async function callerRole(db: Db, live: LiveStaffSession, clientId: string): Promise<string | null> {
  if (live.staff.owner === 1) return null;
  return (await roleIn(db, live.staff.id, clientId)) ?? null;
}
