import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ProgramExternalIdParams,
  ProgramParticipant,
  ProgramParticipantReply,
  ProgramParticipantRequest,
  ProgramParticipantsPage,
  ProgramParticipantsQuery,
  ProgramPointsReply,
  ProgramPointsRequest,
  ProgramReversalReply,
  ProgramReversalRequest,
  ProgramStatementPage,
  ProgramStatementQuery,
  ProgramStatusReply,
  ProgramStatusRequest,
  ProgramUsernameParams,
} from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { apiCallerOf } from '../api-keys/guard.ts';
import { programBulkRoutes } from './bulk-routes.ts';
import { programEarningRuleRoutes } from '../earning-rules/program-routes.ts';
import { programEventRoutes } from '../events/program-routes.ts';
import { withScope } from './scopes.ts';

// The helpers every program API route is declared with (webhooks' routes too, decision 084).
export { PROGRAM_API_TAG, withScope, withScopeOf } from './scopes.ts';
import {
  changeParticipantStatus,
  getParticipant,
  listParticipants,
  postPoints,
  putParticipant,
  reversePosting,
  statementOf,
} from './service.ts';

/**
 * The program API (issue 29 §2, docs/decisions/085), inside app.ts's scope at PROGRAM_API_BASE
 * (which adds `cache-control: no-store`). HTTP only: the client is the key's (apiCallerOf), the
 * rules are service.ts's.
 */
export function programApiRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const { db } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const origin = (ip: string) => ({ address: ip });

  typed.get(
    '/participants',
    withScope(db, 'participants:read', {
      summary: 'Participants created or changed since a time, in the order of their last change, a page at a time',
      description:
        'updatedSince (ISO 8601, or a day) counts profile, status, offerings, programs and language changes, not the balance (read the statement, or take the points webhooks). A participant changed while you page moves to the end: you read it again rather than miss it. Pass next as cursor until it is null; keep the last updatedAt you saw, and next time ask from a little before it.',
      querystring: ProgramParticipantsQuery,
      response: { 200: ProgramParticipantsPage },
    }),
    async (request) => listParticipants(db, apiCallerOf(request), request.query),
  );

  typed.get(
    '/participants/:username',
    withScope(db, 'participants:read', {
      summary: "One participant: profile, status, offerings, programs and balance (404 if the key's client has none of that username)",
      params: ProgramUsernameParams,
      response: { 200: ProgramParticipant },
    }),
    async (request) => getParticipant(db, apiCallerOf(request), request.params.username),
  );

  typed.put(
    '/participants/:username',
    withScope(db, 'participants:write', {
      summary: 'Create or update a participant with the fields and rules of a participants import: 201 created, 200 updated or unchanged',
      description:
        'The same checks and messages as an import line (400 with the reason, nothing written). Fields left out keep their value for a known participant. The status may be set (pending never undoes an activation); who is made inactive is signed out. Told to webhooks as participant.created or participant.updated (and participant.status_changed).',
      params: ProgramUsernameParams,
      body: ProgramParticipantRequest,
      response: { 200: ProgramParticipantReply, 201: ProgramParticipantReply },
    }),
    async (request, reply) => {
      const result = await putParticipant(db, apiCallerOf(request), origin(request.ip), request.params.username, request.body);
      return reply.status(result.status).send(result.reply);
    },
  );

  typed.post(
    '/participants/:username/status',
    withScope(db, 'participants:write', {
      summary: 'Set a participant active or inactive, with a reason (audited); inactive signs them out everywhere',
      description:
        'Never back to pending. The same status again changes nothing (changed: false). Told to webhooks as participant.status_changed.',
      params: ProgramUsernameParams,
      body: ProgramStatusRequest,
      response: { 200: ProgramStatusReply },
    }),
    async (request) => changeParticipantStatus(db, apiCallerOf(request), origin(request.ip), request.params.username, request.body),
  );

  typed.get(
    '/participants/:username/statement',
    withScope(db, 'points:read', {
      summary: "A participant's ledger, newest first, with the balance after each entry and the externalId of the API's postings",
      params: ProgramUsernameParams,
      querystring: ProgramStatementQuery,
      response: { 200: ProgramStatementPage },
    }),
    async (request) => statementOf(db, apiCallerOf(request), request.params.username, request.query),
  );

  typed.post(
    '/points',
    withScope(db, 'points:write', {
      summary: 'Post a credit (positive) or a debit (negative) once per externalId: 201, and the same 201 to every repeat of the same body',
      description:
        'A debit never takes the balance below zero (409, errorCode 95001, nothing posted). The same body under the same externalId is answered the first reply again (header idempotent-replayed: true), however often and however simultaneously it is sent; another body under it is 409 (95002). A refused posting keeps nothing: its externalId stays free. Told to webhooks as points.credited or points.debited.',
      body: ProgramPointsRequest,
      response: { 201: ProgramPointsReply },
    }),
    async (request, reply) => {
      const result = await postPoints(db, apiCallerOf(request), request.body);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(result.reply);
    },
  );

  typed.post(
    '/points/:externalId/reversal',
    withScope(db, 'points:write', {
      summary: 'Reverse all or part of a posting, once, with a reason',
      description:
        'A credit reversed is a debit (409, 95001, if the balance no longer covers it), a debit reversed a credit. More points than the posting had: 400 (95004); a second reversal: 409 (95003). Told to webhooks as points.reversed.',
      params: ProgramExternalIdParams,
      body: ProgramReversalRequest,
      response: { 201: ProgramReversalReply },
    }),
    async (request, reply) =>
      reply.status(201).send(await reversePosting(db, apiCallerOf(request), request.params.externalId, request.body)),
  );

  programBulkRoutes(api, deps);
  // Earning rules' routes (decision 095) live in their module.
  programEarningRuleRoutes(api, deps);
  // Events in (decision 097) live in their module.
  programEventRoutes(api, deps);
}
