import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, apiPaths } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { sharedDatabase, startServers, type ServerProcess } from '../../../test/server-process.ts';

const headers = { 'content-type': 'application/json', 'client-id': 'http://localhost:3000' };

/**
 * Decision 040: the limits live in the database, taken by one conditional write each, so two
 * server processes on one database share them. 100 requests at once, spread over both.
 */
describe.each(dialects)('limits across two server processes on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    database = await sharedDatabase(dialect);
    servers = await startServers(database.url);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  });

  const post = (i: number, path: string, body: unknown) =>
    fetch(`${servers[i % 2]?.base}${API_BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (reply) => {
      await reply.arrayBuffer();
      return reply.status;
    });
  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

  it('checks 5 of 100 wrong passwords sent at once to both, and refuses the right one after them', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(i, apiPaths.login, { username: 'spent', password: `wrong-${i}` })),
    );
    expect(tally(statuses)).toEqual({ 401: 5, 429: 95 });
    expect(await post(0, apiPaths.login, { username: 'spent', password: 'Rewards-2026!' })).toBe(429);
    expect(await post(1, apiPaths.login, { username: 'spent', password: 'Rewards-2026!' })).toBe(429);
  }, 60_000);

  it('accepts 5 of 100 reset requests for one account sent at once to both', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(i, apiPaths.forgotPassword, { userName: 'demo', emailAddress: 'demo@example.com' })),
    );
    expect(tally(statuses)).toEqual({ 200: 5, 429: 95 });
  }, 60_000);
});
