import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  BatchDetail,
  BatchDetailQuery,
  BatchList,
  BatchParams,
  GenerateBatchRequest,
  VoidCodesReply,
  VoidCodesRequest,
  consoleCodesPaths as paths,
} from '@rewards/contract/console-codes';
import { ConsoleParticipantParams } from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import type { Actor } from '../participants/operator-service.ts';
import { batchDetail, generatePrintRun, listPrintRuns, printRunFileName, voidCodes, type PrintRunRequest } from './print-runs.ts';
import type { Documented } from '../staff/routes.ts';

/** Who may generate and void: a client's program managers (and owners, who pass every role check). */
const MANAGING: readonly StaffRole[] = ['program_manager'];
const ClientParams = ConsoleParticipantParams.pick({ clientId: true });
const pattern = (path: string) => path.replaceAll('%3A', ':');
const batchesPattern = pattern(paths.batches(':clientId'));
const batchPattern = pattern(paths.batch(':clientId', ':batch'));
const voidPattern = pattern(paths.voidCodes(':clientId', ':batch'));

/**
 * The console's code batches (issue 20 §1, docs/decisions/063), inside the console plugin of
 * modules/staff/routes.ts, on the services `rewards codes` calls (print-runs.ts). Every role of
 * the client reads; program managers and owners generate (a fresh second factor: minting value)
 * and void, with a reason. The new codes leave the server once, in the generate reply's CSV.
 */
/**
 * Makes a batch of codes and answers 201 with its CSV as a download (the console's and the
 * program API's): the reply is the codes' only copy.
 */
export async function sendNewPrintRun(
  reply: FastifyReply,
  db: Db,
  actor: Actor,
  clientId: string,
  body: Omit<PrintRunRequest, 'batch'> & { name?: string | undefined; reason: string },
): Promise<string> {
  const { name, count, value, expires, reason } = body;
  const { run, csv } = await generatePrintRun(db, actor, clientId, { count, value, expires, batch: name }, reason);
  reply.status(201);
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${printRunFileName(run.batch)}"`);
  return csv;
}

export function consoleCodesRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const actorOf = (request: FastifyRequest) => ({ name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip });

  typed.get(
    batchesPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's code batches, newest first, with their codes counted: unused, redeemed, expired, void",
        params: ClientParams,
        response: { 200: BatchList },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => {
      const batches = await listPrintRuns(db, request.params.clientId, new Date().toISOString(), 'newest');
      return { batches: batches.map(({ batch, ...rest }) => ({ name: batch, ...rest })) };
    },
  );

  typed.post(
    batchesPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Generate a batch of codes (a fresh second factor and a reason; audited without the codes). The reply is the CSV of the codes, the only copy: the server keeps their hashes',
        params: ClientParams,
        body: GenerateBatchRequest,
        response: { 201: z.string().describe('text/csv') },
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request, reply) => sendNewPrintRun(reply, db, actorOf(request), request.params.clientId, request.body),
  );

  typed.get(
    batchPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: 'One batch: its counts and its codes by hint (the last four characters), who redeemed each and when; ?hint= narrows',
        params: BatchParams,
        querystring: BatchDetailQuery,
        response: { 200: BatchDetail },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => batchDetail(db, request.params.clientId, request.params.batch, request.query.hint),
  );

  typed.post(
    voidPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary: 'Void the unused codes of a batch, or one code of it by hint, with a reason; audited. A redeemed code cannot be voided',
        params: BatchParams,
        body: VoidCodesRequest,
        response: { 200: VoidCodesReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { hint, reason } = request.body;
      const { batch, clientId } = request.params;
      return voidCodes(db, actorOf(request), clientId, hint === undefined ? { batch } : { batch, hint }, new Date(), reason);
    },
  );
}
