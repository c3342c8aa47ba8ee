import { randomUUID } from 'node:crypto';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { consoleParticipantPaths as paths } from '@rewards/contract/console-participants';
import type { Db } from '../../db/database.ts';

/** Fastify's pattern of a participant path of the contract. */
export const participantPattern = (build: (clientId: string, participantId: string) => string) =>
  build(':clientId', ':participantId').replaceAll('%3A', ':');

/** The console-actions routes (decision 048) as the role table names them. */
export const consoleActionRoutes = {
  launchAs: `POST ${CONSOLE_API_BASE}${participantPattern(paths.launchAs)}`,
  adjustments: `POST ${CONSOLE_API_BASE}${participantPattern(paths.adjustments)}`,
  status: `POST ${CONSOLE_API_BASE}${participantPattern(paths.status)}`,
  unlock: `POST ${CONSOLE_API_BASE}${participantPattern(paths.unlock)}`,
  endSessions: `POST ${CONSOLE_API_BASE}${participantPattern(paths.endSessions)}`,
  resendMail: `POST ${CONSOLE_API_BASE}${participantPattern(paths.resendMail)}`,
  details: `POST ${CONSOLE_API_BASE}${participantPattern(paths.details)}`,
  getSettings: `GET ${CONSOLE_API_BASE}${paths.settings(':clientId').replaceAll('%3A', ':')}`,
  putSettings: `PUT ${CONSOLE_API_BASE}${paths.settings(':clientId').replaceAll('%3A', ':')}`,
} as const;

/** A participant's id by username. */
export async function participantId(db: Db, clientId: string, username: string): Promise<string> {
  const row = await db
    .selectFrom('participants')
    .select('id')
    .where('client_id', '=', clientId)
    .where('username_key', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

type Send = (method: HTTPMethods, path: string, options?: { body?: unknown }) => Promise<LightMyRequestResponse>;

/**
 * One cell of the role table for a console-actions route: a request that succeeds for whoever
 * may make it, every time (a new requestId, the other status, a new first name), so the table
 * shows the role check alone. Undefined for a route of another part.
 */
export async function consoleActionRequest(
  db: Db,
  row: string,
  clientId: string,
  column: string,
  send: Send,
): Promise<LightMyRequestResponse | undefined> {
  const reason = 'role table: ticket 17';
  const demo = () => participantId(db, clientId, 'demo');
  switch (row) {
    case consoleActionRoutes.launchAs:
      return send('POST', paths.launchAs(clientId, await demo()), { body: { reason } });
    case consoleActionRoutes.adjustments:
      return send('POST', paths.adjustments(clientId, await demo()), {
        body: { points: 1, participantText: 'Role table', internalNote: reason, requestId: randomUUID() },
      });
    case consoleActionRoutes.status: {
      // acme's `inactive` and globex's `demo` go back and forth: every allowed call changes something.
      const username = clientId === 'acme' ? 'inactive' : 'demo';
      const { id, status } = await db
        .selectFrom('participants')
        .select(['id', 'status'])
        .where('client_id', '=', clientId)
        .where('username_key', '=', username)
        .executeTakeFirstOrThrow();
      return send('POST', paths.status(clientId, id), { body: { status: status === 'active' ? 'inactive' : 'active', reason } });
    }
    case consoleActionRoutes.unlock:
      return send('POST', paths.unlock(clientId, await demo()), { body: { reason } });
    case consoleActionRoutes.endSessions:
      return send('POST', paths.endSessions(clientId, await demo()), { body: { reason } });
    case consoleActionRoutes.resendMail:
      return send('POST', paths.resendMail(clientId, await demo()), { body: { mail: 'passwordReset', reason } });
    case consoleActionRoutes.details:
      return send('POST', paths.details(clientId, await demo()), { body: { firstName: `Dana ${column.replace(/[^a-z]/g, '')}`, reason } });
    case consoleActionRoutes.getSettings:
      return send('GET', paths.settings(clientId));
    case consoleActionRoutes.putSettings:
      return send('PUT', paths.settings(clientId), { body: { agentDailyAdjustmentLimit: 1000 + column.length, reason } });
    default:
      return undefined;
  }
}
