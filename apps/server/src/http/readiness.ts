import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { migrationStatus } from '../db/migrate.ts';

/**
 * Whether this process should be sent traffic (decision 081). main.ts sets `draining` on SIGTERM,
 * DRAIN_SECONDS before the listener closes, so the proxy's health check stops sending here while
 * requests are still served.
 */
export interface Readiness {
  draining: boolean;
}

/** What a readiness check may say failed: names only, nothing a stranger could use. */
export type ReadinessFailure = 'draining' | 'database' | 'migrations';

/** A database that has not answered within this is not ready: a health check must answer sooner than the proxy gives up. */
const DATABASE_TIMEOUT_MS = 1_000;

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * `/readyz`: 200 when the database answers, the newest migration this code knows is applied, and
 * the process is not draining; otherwise 503 naming the first check that failed. Beside
 * `/healthz` (alive), on every host, not in the API document (not under /api/).
 */
export function registerReadiness(app: FastifyInstance, db: Db, readiness: Readiness): void {
  // Applied migrations are never taken back under a running process, so one success is kept.
  let migrated = false;
  const check = async (): Promise<ReadinessFailure | undefined> => {
    if (readiness.draining) return 'draining';
    try {
      await withinTimeout(sql`select 1`.execute(db), DATABASE_TIMEOUT_MS);
    } catch {
      return 'database';
    }
    if (!migrated) {
      try {
        const status = await withinTimeout(migrationStatus(db), DATABASE_TIMEOUT_MS);
        migrated = status.pending.length === 0;
      } catch {
        return 'database';
      }
      if (!migrated) return 'migrations';
    }
    return undefined;
  };
  app.get('/readyz', async (_request, reply) => {
    const failed = await check();
    reply.header('cache-control', 'no-store');
    if (failed === undefined) return reply.send({ status: 'ready' });
    return reply.code(503).send({ status: 'unavailable', failed });
  });
}
