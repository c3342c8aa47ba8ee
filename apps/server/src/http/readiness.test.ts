// /readyz (decision 081): ready only when the database answers, the newest migration is applied and
// the process is not draining; a 503 says which check failed and nothing more.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { NEWEST_KNOWN_MIGRATION } from '../db/migrate.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import type { Readiness } from './readiness.ts';

describe.each(dialects)('/readyz on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.drop());

  const appWith = (readiness: Readiness) => buildApp({ config: { ...loadConfig({}), webDist: undefined }, db: database.db, readiness });

  it('is ready on a migrated database that answers, on any host, and not while draining', async () => {
    const readiness = { draining: false };
    const app = await appWith(readiness);
    try {
      for (const host of ['localhost:3000', 'console.localhost:3000', 'anything.example']) {
        const reply = await app.inject({ method: 'GET', url: '/readyz', headers: { host } });
        expect(reply.statusCode, host).toBe(200);
        expect(reply.json()).toEqual({ status: 'ready' });
        expect(reply.headers['cache-control']).toBe('no-store');
      }
      readiness.draining = true;
      const draining = await app.inject({ method: 'GET', url: '/readyz' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ status: 'unavailable', failed: 'draining' });
      // Alive all the same: /healthz is about the process, not the traffic.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is not ready while the newest migration the code knows is not applied', async () => {
    const own = await createTestDatabase(dialect);
    try {
      await sql`delete from kysely_migration where name = ${NEWEST_KNOWN_MIGRATION}`.execute(own.db);
      const app = await buildApp({ config: { ...loadConfig({}), webDist: undefined }, db: own.db });
      try {
        const reply = await app.inject({ method: 'GET', url: '/readyz' });
        expect(reply.statusCode).toBe(503);
        expect(reply.json()).toEqual({ status: 'unavailable', failed: 'migrations' });
      } finally {
        await app.close();
      }
    } finally {
      await own.drop();
    }
  });

  it('is not ready when the database does not answer', async () => {
    const own = await createTestDatabase(dialect);
    const app = await buildApp({ config: { ...loadConfig({}), webDist: undefined }, db: own.db });
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await own.db.destroy();
      const reply = await app.inject({ method: 'GET', url: '/readyz' });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toEqual({ status: 'unavailable', failed: 'database' });
    } finally {
      await app.close();
      await own.drop().catch(() => undefined);
    }
  });
});
