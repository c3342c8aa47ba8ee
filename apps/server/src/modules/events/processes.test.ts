import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRAM_API_BASE, programApiPaths } from '@rewards/contract';
import { programEventsPaths as paths, type ProgramEventReply } from '@rewards/contract/events';
import { databaseConfigFromUrl } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { dialects } from '../../../test/databases.ts';
import { sharedDatabase, startServers, type ServerProcess } from '../../../test/server-process.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { createRule } from '../earning-rules/service.ts';
import { makeKey, participantBody, tag } from '../program-api/test-support.ts';

const CLIENT = 'acme';

/**
 * Issue 32 §4 "two processes posting events for the same participant" (decision 097): two real
 * server processes on one database take the events of one participant at once, every event sent
 * to both. Each id is kept once, both answer it the same, and the monthly cap is reached exactly:
 * the cap's counter row is locked in each posting's transaction, whichever process posts it.
 */
describe.each(dialects)('events across two server processes on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let servers: ServerProcess[] = [];
  let db: Db;
  let key: string;
  const eventType = `p${tag()}.visit`;

  const call = async (server: ServerProcess, method: string, path: string, body: unknown) => {
    const reply = await fetch(`${server.base}${PROGRAM_API_BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: reply.status, json: (await reply.json()) as unknown };
  };

  beforeAll(async () => {
    database = await sharedDatabase(dialect);
    servers = await startServers(database.url);
    db = createDatabase(databaseConfigFromUrl(database.url));
    key = (await makeKey(db, CLIENT)).key;
    await createRule(
      db,
      { kind: 'operator', name: 'processes-test', origin: 'test' },
      CLIENT,
      {
        id: `proc-${tag()}`,
        name: 'Visits',
        event: eventType,
        earn: { pointsPer: 1, per: '1' },
        caps: { participant: { points: 300, per: 'month' } },
      },
      'two processes',
      { now: new Date('2026-01-01T00:00:00Z') },
    );
  }, 240_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (db) {
      await expectLedgerMatchesBalances(db);
      await db.destroy();
    }
    await database?.drop();
  });

  it('keeps each of 50 events sent to both processes once, and gives exactly the monthly cap', async () => {
    const username = `proc.${tag()}`;
    const made = await call(servers[0]!, 'PUT', programApiPaths.participant(username), participantBody());
    expect(made.status).toBe(201);
    const events = Array.from({ length: 50 }, (_, i) => ({
      id: `visit-${tag()}-${i}`,
      type: eventType,
      username,
      occurredAt: `2026-09-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      amount: '10',
    }));
    const replies = await Promise.all(events.flatMap((event) => servers.map((server) => call(server, 'POST', paths.events, event))));
    expect(replies.map((r) => r.status)).toEqual(Array(100).fill(201));
    const byId = Map.groupBy(
      replies.map((r) => r.json as ProgramEventReply),
      (reply) => reply.id,
    );
    expect(byId.size).toBe(50);
    let total = 0;
    for (const [, pair] of byId) {
      // One kept it, the other answered what was kept.
      expect(pair.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(pair[0]!.points).toBe(pair[1]!.points);
      total += pair[0]!.points;
    }
    expect(total).toBe(300);
    const participant = await db
      .selectFrom('participants')
      .select(['id', 'balance'])
      .where('client_id', '=', CLIENT)
      .where('username_key', '=', username)
      .executeTakeFirstOrThrow();
    expect(Number(participant.balance)).toBe(300);
    const kept = await db
      .selectFrom('participant_events')
      .select('id')
      .where('client_id', '=', CLIENT)
      .where('participant_id', '=', participant.id)
      .execute();
    expect(kept).toHaveLength(50);
  }, 120_000);
});
