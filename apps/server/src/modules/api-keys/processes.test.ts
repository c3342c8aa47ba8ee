import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API_BASE, adminPaths } from '@rewards/contract';
import { rewardsJson } from '../../../test/cli.ts';
import { dialects } from '../../../test/databases.ts';
import { sharedDatabase, startServers, type ServerProcess } from '../../../test/server-process.ts';

/**
 * Decision 083: a key's token bucket is a row, taken by one conditional UPDATE … RETURNING, so
 * two server processes on one database share it. 100 calls at once, spread over both, on the
 * launch-token call (the one route of this part an API key opens in the real server).
 */
describe.each(dialects)('API key limits across two server processes on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    database = await sharedDatabase(dialect);
    servers = await startServers(database.url);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  });

  it('lets exactly the burst of 10 through of 100 parallel calls to both', async () => {
    const made = await rewardsJson<{ key: string }>(database.url, [
      'api-keys',
      'create',
      '--client',
      'acme',
      '--name',
      'Two processes',
      '--scopes',
      'launch-as',
      '--rate',
      '0.01',
      '--burst',
      '10',
      '--reason',
      'limits test',
    ]);
    const post = (i: number) =>
      fetch(`${servers[i % 2]?.base}${ADMIN_API_BASE}${adminPaths.launchTokens}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${made.key}` },
        body: JSON.stringify({ username: 'demo', reason: 'two processes' }),
      }).then(async (reply) => {
        await reply.arrayBuffer();
        return reply.status;
      });
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => post(i)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
  }, 60_000);
});
