import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ConsoleClientParams, STAFF_ROLES } from '@rewards/contract/console';
import {
  ClientsComparison,
  CodesReport,
  OrdersReport,
  ParticipantsReport,
  PointsReport,
  ReportMonthsQuery,
  consoleReportPaths as paths,
} from '@rewards/contract/console-reports';
import type { Db } from '../../db/database.ts';
import { requireRole, requireStaff, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { staffScope } from '../staff/scope.ts';
import { codesReport, compareClients, ordersReport, participantsReport, pointsReport } from './service.ts';
import type { Documented } from '../staff/routes.ts';

const pattern = (path: (clientId: string) => string) => path(':clientId').replaceAll('%3A', ':');

/**
 * The console's reports (issue 20, section 5, docs/decisions/067), inside the console plugin of
 * modules/staff/routes.ts: every role of a client reads its reports, an owner every client's;
 * the comparison lists the clients the caller sees (an owner: all of them).
 */
export function consoleReportRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const anyRole = requireRole(db, site, clientIdOf, STAFF_ROLES);

  typed.get(
    pattern(paths.participants),
    {
      onRequest: anyRole,
      schema: {
        summary: "The client's participants by status, and those who signed in in the last 30 days",
        params: ConsoleClientParams,
        response: { 200: ParticipantsReport },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => participantsReport(db, request.params.clientId),
  );

  typed.get(
    pattern(paths.points),
    {
      onRequest: anyRole,
      schema: {
        summary: 'Points issued, redeemed, expired and otherwise debited per month (UTC), and the liability at each month end',
        params: ConsoleClientParams,
        querystring: ReportMonthsQuery,
        response: { 200: PointsReport },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => pointsReport(db, request.params.clientId, request.query.months),
  );

  typed.get(
    pattern(paths.codes),
    {
      onRequest: anyRole,
      schema: {
        summary: 'On-the-spot code batches: generated, redeemed, expired, voided, open and the redemption rate',
        params: ConsoleClientParams,
        response: { 200: CodesReport },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => codesReport(db, request.params.clientId),
  );

  typed.get(
    pattern(paths.orders),
    {
      onRequest: anyRole,
      schema: {
        summary: 'Catalog orders and their points per month (UTC), and per catalog partner over those months',
        params: ConsoleClientParams,
        querystring: ReportMonthsQuery,
        response: { 200: OrdersReport },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => ordersReport(db, request.params.clientId, request.query.months),
  );

  typed.get(
    paths.comparison,
    {
      onRequest: requireStaff(db, site),
      schema: {
        summary: 'Every client the caller sees side by side (an owner: the whole installation) over the last months',
        querystring: ReportMonthsQuery,
        response: { 200: ClientsComparison },
        ...documented('any staff'),
      },
    },
    async (request) => {
      const scope = await staffScope(db, staffOf(request).staff);
      return compareClients(db, scope.clientIds, request.query.months);
    },
  );
}
