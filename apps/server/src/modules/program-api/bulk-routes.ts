import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ProgramCodeBatchRequest,
  ProgramConfirmImportRequest,
  ProgramImportJob,
  ProgramImportParams,
  ProgramImportQuery,
  type ApiScope,
} from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { errors } from '../../http/api-error.ts';
import { apiCallerOf } from '../api-keys/guard.ts';
import { stageStreamedUpload } from '../imports/console-routes.ts';
import { importRunner } from '../imports/run.ts';
import { confirmImport, readImport, stageImport } from '../imports/service.ts';
import { findJobById } from '../jobs/service.ts';
import { sendNewPrintRun } from '../ots/console-routes.ts';
import type { Actor } from '../participants/operator-service.ts';
import { withScope, withScopeOf } from './scopes.ts';

const IMPORT_SCOPES = ['points:write', 'participants:write', 'events:write'] as const satisfies readonly ApiScope[];
// An events file earns as POST events does: it takes that route's scope (decision 099).
const scopeOfKind = (kind: unknown): ApiScope =>
  kind === 'participants' ? 'participants:write' : kind === 'events' ? 'events:write' : 'points:write';
const JOB_ID = /^[0-9a-f-]{36}$/;

/**
 * The console's imports and code batches for a client's systems (issue 29 §2 "Bulk" and "Codes",
 * decision 085), on the same services and jobs (modules/imports, decision 064; ots/print-runs.ts,
 * decision 063). An import needs the write scope of its kind: for an upload the query names it;
 * for a job, the job does (read before the key is checked, by an id of the job's shape only: an
 * unknown one is asked for points:write and then not found).
 */
export function programBulkRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const { db } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const runner = importRunner(db, api.log);
  api.addHook('onClose', () => runner.stop());
  const actorOf = (request: FastifyRequest): Actor => ({ name: apiCallerOf(request).keyName, kind: 'api-key', origin: request.ip });
  const scopeOfJob = async (request: FastifyRequest): Promise<ApiScope> => {
    const id = (request.params as { importId?: unknown }).importId;
    const job = typeof id === 'string' && JOB_ID.test(id) ? await findJobById(db, id) : undefined;
    return scopeOfKind(job?.kind);
  };

  // The file passes through as a stream: the import service reads it as it arrives, under its own limits.
  api.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));

  typed.post(
    '/imports',
    withScopeOf(db, IMPORT_SCOPES, (request) => scopeOfKind((request.query as { kind?: unknown }).kind), {
      summary: 'Upload a participants, points or events CSV (text/csv, the file the console takes): answered with the job, "previewing"',
      description:
        'The same job as the console\'s: staged as it streams (256 MB, 1,000,000 lines, 16 kB a line), previewed in the background with the import\'s rules, written only once confirmed (POST imports/{id}/confirm). Poll GET imports/{id} until it is "staged". One import runs per client at a time.',
      querystring: ProgramImportQuery,
      response: { 201: ProgramImportJob },
    }),
    async (request, reply) => {
      const { kind, fileName = 'api-upload.csv' } = request.query;
      const job = await stageStreamedUpload(request, runner, (file) =>
        stageImport(db, actorOf(request), apiCallerOf(request).clientId, kind, fileName, file),
      );
      return reply.code(201).send(job);
    },
  );

  typed.get(
    '/imports/:importId',
    withScopeOf(db, IMPORT_SCOPES, scopeOfJob, {
      summary: 'One import: its state, preview, progress and first rejects (the write scope of its kind)',
      params: ProgramImportParams,
      response: { 200: ProgramImportJob },
    }),
    async (request) => {
      const job = await readImport(db, apiCallerOf(request).clientId, request.params.importId);
      if (!job) throw errors.notFound();
      return job;
    },
  );

  typed.post(
    '/imports/:importId/confirm',
    withScopeOf(db, IMPORT_SCOPES, scopeOfJob, {
      summary: 'Confirm a previewed import with a reason (audited): it runs as a job, one per client at a time (409 names the running one)',
      params: ProgramImportParams,
      body: ProgramConfirmImportRequest,
      response: { 200: ProgramImportJob },
    }),
    async (request) => {
      const job = await confirmImport(db, actorOf(request), apiCallerOf(request).clientId, request.params.importId, request.body.reason);
      runner.kick(job.id);
      return job;
    },
  );

  typed.post(
    '/code-batches',
    withScope(db, 'codes:write', {
      summary:
        'Make a batch of on-the-spot codes (a name once per client, a reason; audited without the codes): the reply is their CSV, the only copy',
      description:
        "The server keeps only the codes' hashes: keep the reply. The same name again is 409 (92110), so a retry never mints a second batch.",
      body: ProgramCodeBatchRequest,
      response: { 201: z.string().describe('text/csv: code,value,expires_at,batch') },
    }),
    async (request, reply) => sendNewPrintRun(reply, db, actorOf(request), apiCallerOf(request).clientId, request.body),
  );
}
