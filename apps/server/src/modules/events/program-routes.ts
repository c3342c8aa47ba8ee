import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PROGRAM_EVENTS_BATCH_MAX,
  ProgramEvent,
  ProgramEventBatchReply,
  ProgramEventBatchRequest,
  ProgramEventParams,
  ProgramEventReply,
  ProgramEventRequest,
  programEventsPaths as paths,
} from '@rewards/contract/events';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { validatorCompiler } from '../../http/schema-compilers.ts';
import { apiCallerOf } from '../api-keys/guard.ts';
import { withScope } from '../program-api/scopes.ts';
import { getEvent, recordEvent, recordEvents } from './service.ts';

/** A batch of 1,000 events of up to 50 attributes each is well over the app's 64 kB. */
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The body reaches the service as sent (its schema stays in the API document): the service checks
 * it and names every problem and where ("amount: an amount is a decimal string …"), as a batch
 * names them for each of its events. Path parameters are still checked by the app's compiler.
 */
const bodyCheckedByService: FastifySchemaCompiler<unknown> = (routeSchema) =>
  routeSchema.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(routeSchema as Parameters<typeof validatorCompiler>[0]);

/**
 * The program API's events (issue 32 §1, docs/decisions/097), a key with events:write: one event
 * or a batch, earned through the client's earning rules into the ledger, and an event as kept.
 * HTTP only; the `events:batch` path's colon is written `::` for Fastify's router.
 */
export function programEventRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const { db } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();

  typed.post(
    paths.events,
    {
      ...withScope(db, 'events:write', {
        summary:
          'Send an event (a purchase, a completed course) once per id: it earns through the earning rules in force at its occurredAt',
        description:
          "201 with what it earned, rule by rule (the rule's version, the points, pending or not); the same body again under the id answers the event as kept, 201 again with header idempotent-replayed: true and replayed: true; another body under it is 409 (95002). The participant is the key's client's (404 otherwise). type is purchase, return, a type the program manager declared (and did not retire), or a type one of the program's rules earns on. Credited points are ledger entries told to webhooks as points.credited; pending points (a rule's pendingDays) are held, told as points.pending, and credited by the daily release run (points.released) on the program's first day at or after availableAt. A return names its original event in references.originalEventId (the same participant's; 400 otherwise) and takes back what it earned, whole (no amount) or in proportion to its amount (cumulative over the returns, never more than earned): from its pending points first, then from the balance, never below zero; what the balance cannot cover is the return's debtPoints. Told as points.reversed. A refused event keeps nothing.",
        body: ProgramEventRequest,
        response: { 201: ProgramEventReply },
      }),
      validatorCompiler: bodyCheckedByService,
    },
    async (request, reply) => {
      const result = await recordEvent(db, apiCallerOf(request), request.body as unknown);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(result.reply);
    },
  );

  typed.post(
    // Fastify reads `::` as one literal colon: the path is /events:batch.
    paths.batch.replace(':', '::'),
    {
      ...withScope(db, 'events:write', {
        summary: `Send up to ${PROGRAM_EVENTS_BATCH_MAX.toLocaleString('en-US')} events, each as POST events takes it, each with its own outcome`,
        description:
          'Always 200 when the batch itself is well formed: results[i] answers events[i] with the status POST events would have given it (201 kept, 200 a repeat of an event kept, 4xx its error) and the event or the error. One bad event never fails its neighbours; the events of a participant are taken in the order sent, and so are their caps.',
        body: ProgramEventBatchRequest,
        response: { 200: ProgramEventBatchReply },
      }),
      bodyLimit: BATCH_BODY_LIMIT,
    },
    async (request) =>
      recordEvents(db, apiCallerOf(request), request.body.events, new Date(), (error) =>
        request.log.error(
          { err: { type: error instanceof Error ? error.name : typeof error, message: error instanceof Error ? error.message : '' } },
          'an event of a batch failed',
        ),
      ),
  );

  typed.get(
    '/events/:id',
    withScope(db, 'events:write', {
      summary: 'An event as kept: what was sent, when it came, and what it earned rule by rule (404 if not of this program)',
      params: ProgramEventParams,
      response: { 200: ProgramEvent },
    }),
    async (request) => getEvent(db, apiCallerOf(request), request.params.id),
  );
}
