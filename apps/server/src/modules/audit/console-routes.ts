import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConsoleAuditPage, ConsoleAuditQuery, consoleAuditPaths } from '@rewards/contract/console-participants';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { requireStaff, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { documented } from '../staff/routes.ts';
import { staffScope } from '../staff/scope.ts';
import { auditTrailCsv, auditTrailPage, CSV_MAX_ROWS, csvFileName, trailFilter } from './trail.ts';

/** The audit trail in the console (docs/decisions/047): pages of JSON, or every match as CSV. */
export async function auditTrailRoutes(api: FastifyInstance, deps: ModuleDeps, origin: ConsoleOrigin): Promise<void> {
  const { db } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const staff = requireStaff(db, origin);

  typed.get(
    consoleAuditPaths.entries,
    {
      onRequest: staff,
      schema: {
        summary:
          'Audit entries newest first, filtered by actor, action, client, participant and dates; an owner sees all, others the clients they hold a role in',
        querystring: ConsoleAuditQuery,
        response: { 200: ConsoleAuditPage },
        ...documented('any staff'),
      },
    },
    async (request) => auditTrailPage(db, await staffScope(db, staffOf(request).staff), request.query),
  );

  typed.get(
    consoleAuditPaths.csv,
    {
      onRequest: staff,
      schema: {
        summary: `The same entries as CSV, newest first, at most ${CSV_MAX_ROWS.toLocaleString('en-US')} rows, as a download; cells a spreadsheet would run as formulas are neutralised`,
        querystring: ConsoleAuditQuery.omit({ limit: true, after: true }),
        response: { 200: z.string().describe('text/csv') },
        ...documented('any staff'),
      },
    },
    async (request, reply) => {
      // Checked before the first byte: a bad filter is a 400, not a broken download.
      const filter = await trailFilter(db, await staffScope(db, staffOf(request).staff), request.query);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${csvFileName()}"`);
      // Fastify pipes a stream as it is (no serializer); the schema's string documents the text.
      return reply.send(Readable.from(auditTrailCsv(db, filter)) as unknown as string);
    },
  );
}
