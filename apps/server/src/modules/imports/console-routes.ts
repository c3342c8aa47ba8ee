import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ConfirmImportRequest,
  DiscardImportRequest,
  ImportJob,
  ImportJobList,
  ImportParams,
  ImportUploadQuery,
  consoleImportPaths as paths,
} from '@rewards/contract/console-imports';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { importRunner } from './run.ts';
import { confirmImport, discardImport, importRejectsCsv, listImports, readImport, stageImport, type ImportActor } from './service.ts';
import type { Documented } from '../staff/routes.ts';

/** Who uploads, confirms and discards: program managers (and owners, who pass every role check). Every role reads. */
const MANAGING: readonly StaffRole[] = ['program_manager'];
const ClientParams = ImportParams.pick({ clientId: true });
const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * How long, and how much, a refused upload's client may go on sending (read and dropped) before
 * its connection is cut: enough for it to read the answer, which was sent before.
 */
const REFUSED_LINGER_MS = 2_000;
const REFUSED_LINGER_BYTES = 16 * 1024 * 1024;

/**
 * An upload refused before its last byte (a line over the cap, a file over the limit): the service
 * stopped reading it, and nothing more of it is kept, but the client may still be sending. Closing
 * the connection at once (what Fastify does with a body over its limit) let a client that writes
 * before it reads (Node's http, seen under load) fail on a reset before it read the 400; so what it
 * still sends is read and dropped, as a web server's lingering close does, for REFUSED_LINGER_MS
 * or REFUSED_LINGER_BYTES at most, then the connection is cut. A client that stops sending once
 * answered keeps its connection.
 */
export function dropRest(raw: IncomingMessage, body: Readable): void {
  if (body.readableEnded || body.destroyed) return;
  let dropped = 0;
  // Destroying a request not read to its end destroys its socket.
  const cut = () => raw.destroy();
  const timer = setTimeout(cut, REFUSED_LINGER_MS).unref();
  body.unpipe();
  body.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > REFUSED_LINGER_BYTES) cut();
  });
  body.once('close', () => clearTimeout(timer));
  body.resume();
}

/**
 * The CSV a request streams as its body (the console's upload and the program API's), handed to
 * `stage` and its preview started; an upload refused before its last byte has the rest dropped.
 */
export async function stageStreamedUpload<Job extends { id: string }>(
  request: FastifyRequest,
  runner: { kick(jobId: string): void },
  stage: (file: Readable) => Promise<Job>,
): Promise<Job> {
  const body = request.body;
  if (!(body instanceof Readable)) throw errors.validation('Send the file as text/csv');
  // Through a pipe: a reader that stops early ends the pipe, not the request (see dropRest).
  const file = body.pipe(new PassThrough());
  try {
    const job = await stage(file);
    runner.kick(job.id);
    return job;
  } catch (error) {
    if (!request.raw.complete) dropRest(request.raw, body);
    throw error;
  }
}

/**
 * The console's imports (issue 20 §2, docs/decisions/064), inside the console plugin of
 * modules/staff/routes.ts. The upload's body is a CSV read as a stream (no body limit of Fastify's:
 * the service counts bytes, lines and each line's length against its own limits). The upload answers once the file is
 * staged, with the job previewing; the preview, then (once confirmed) the run, start in this
 * process, and any process takes them over after a restart (main.ts startImportJobs).
 */
export function consoleImportRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const runner = importRunner(db, api.log);
  api.addHook('onClose', () => runner.stop());
  const actorOf = (request: FastifyRequest): ImportActor => ({ name: staffOf(request).staff.email, kind: 'staff', origin: request.ip });

  // The file passes through as a stream: the service parses it as it arrives.
  api.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));

  typed.get(
    pattern(paths.imports(':clientId')),
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's imports, newest first",
        params: ClientParams,
        response: { 200: ImportJobList },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => ({ jobs: await listImports(db, request.params.clientId) }),
  );

  typed.post(
    pattern(paths.imports(':clientId')),
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Upload a participants or points CSV (text/csv, streamed): it is staged, and answered with the job "previewing" while its preview is computed in the background; nothing is written until confirmed. A line over 16 kB is refused (400 naming it) as soon as it passes that, keeping nothing',
        params: ClientParams,
        querystring: ImportUploadQuery,
        response: { 201: ImportJob },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request, reply) => {
      const { kind, fileName } = request.query;
      const job = await stageStreamedUpload(request, runner, (file) =>
        stageImport(db, actorOf(request), request.params.clientId, kind, fileName, file),
      );
      return reply.code(201).send(job);
    },
  );

  typed.get(
    pattern(paths.job(':clientId', ':jobId')),
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: 'One import: its preview, progress and first rejects',
        params: ImportParams,
        response: { 200: ImportJob },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => {
      const job = await readImport(db, request.params.clientId, request.params.jobId);
      if (!job) throw errors.notFound();
      return job;
    },
  );

  typed.post(
    pattern(paths.confirm(':clientId', ':jobId')),
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Confirm a previewed import with a reason (audited): it runs as a job, one per client at a time (409 names the running one)',
        params: ImportParams,
        body: ConfirmImportRequest,
        response: { 200: ImportJob },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const job = await confirmImport(db, actorOf(request), request.params.clientId, request.params.jobId, request.body.reason);
      runner.kick(job.id);
      return job;
    },
  );

  typed.post(
    pattern(paths.discard(':clientId', ':jobId')),
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Discard an import being previewed or previewed, with an optional reason (audited): its staged lines are deleted; 409 once it runs, ended or was discarded',
        params: ImportParams,
        body: DiscardImportRequest,
        response: { 200: ImportJob },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => discardImport(db, actorOf(request), request.params.clientId, request.params.jobId, request.body.reason || null),
  );

  typed.get(
    pattern(paths.rejects(':clientId', ':jobId')),
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The import's rejected lines as CSV (line,reason): the run's once it ran, else the preview's",
        params: ImportParams,
        response: { 200: z.string().describe('text/csv') },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request, reply) => {
      const csv = await importRejectsCsv(db, request.params.clientId, request.params.jobId);
      if (!csv) throw errors.notFound();
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="import-${request.params.jobId}-rejects.csv"`);
      // Fastify pipes a stream as it is (no serializer); the schema's string documents the text.
      return reply.send(csv as unknown as string);
    },
  );
}
