import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type StatementReply, type UserData } from '@rewards/contract';
import { spawnRewards } from '../../../test/cli.ts';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createDatabase } from '../../db/database.ts';
import { appendLedgerEntry } from '../ledger/store.ts';
import { PACED_FROM_BYTES, SLICE_BYTES, writesTaken } from './paced-body.ts';
import { STATEMENT_BUILT_CHANNEL as CHANNEL } from './service.ts';

/**
 * Bea's 10,000-entry statement must not slow anyone else (issue 16, docs/decisions/044): it is
 * built once per change of her ledger (or of the texts), concurrent requests share that build,
 * the build lets other requests through, and a new entry written by anyone shows at once.
 */
/** The CLI is a process per run (~0.4 s, several seconds when the machine is busy). */
const CLI_TIMEOUT = 90_000;

describe.each(dialects)("bigspender's statement among other participants, on %s", (dialect) => {
  let t: TestApp;
  let bea: string;
  let beaId: string;
  /** Builds started, by participant id, since the test began. */
  let builds: string[] = [];
  const onBuild = (message: unknown) => builds.push((message as { participantId: string }).participantId);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    bea = (await t.login('bigspender')).sessionId;
    beaId = (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', 'acme')
        .where('username', '=', 'bigspender')
        .executeTakeFirstOrThrow()
    ).id;
    subscribe(CHANNEL, onBuild);
  });
  afterEach(() => {
    builds = [];
  });
  afterAll(async () => {
    unsubscribe(CHANNEL, onBuild);
    await t.close();
  });

  const statement = (session = bea, locale = 'en-US') => t.api('GET', apiPaths.statement('bigspender', locale), { session });
  const beasBuilds = () => builds.filter((id) => id === beaId).length;
  const balance = async () =>
    Number((await t.database.db.selectFrom('participants').select('balance').where('id', '=', beaId).executeTakeFirstOrThrow()).balance);

  it('builds it once for concurrent requests, sends the same bytes to each, and not again while nothing changed', async () => {
    const replies = await Promise.all(Array.from({ length: 4 }, () => statement(bea, 'fr-FR')));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(beasBuilds()).toBe(1);
    const body = replies[0]!.body;
    for (const reply of replies) expect(reply.body).toBe(body);
    // The bytes JSON.stringify makes of the reply, though they are made a thousand entries at a time.
    expect(JSON.stringify(JSON.parse(body))).toBe(body);
    const parsed = JSON.parse(body) as StatementReply;
    expect(parsed.accountHistoryList).toHaveLength(10_000);
    expect(parsed.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(await balance());

    for (let i = 0; i < 3; i++) expect((await statement(bea, 'fr-FR')).body).toBe(body);
    expect(beasBuilds()).toBe(1);
  });

  it('sends the same bytes and headers whether it goes whole in its turn or in slices, and a HEAD the same headers', async () => {
    // French: built by the first test (the next one needs English not built yet).
    const path = apiPaths.statement('bigspender', 'fr-FR');
    const get = (encoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
      t.api(method, path, { session: bea, headers: encoding ? { 'accept-encoding': encoding } : {} });
    // Uncompressed (~1 MB): in slices, a turn each, its length said as for a body sent at once.
    let taken = writesTaken();
    const plain = await get();
    expect(writesTaken() - taken).toBe(Math.ceil(plain.rawPayload.length / SLICE_BYTES));
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(2 * SLICE_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['transfer-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(JSON.stringify(JSON.parse(plain.body))).toBe(plain.body);
    expect(plain.json<StatementReply>().accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(await balance());
    // Compressed (~80 kB): whole, in a turn of its own.
    taken = writesTaken();
    const br = await get('gzip, deflate, br, zstd');
    const gzip = await get('gzip');
    expect(writesTaken() - taken).toBe(2);
    for (const [reply, coding, decode] of [
      [br, 'br', brotliDecompressSync],
      [gzip, 'gzip', gunzipSync],
    ] as const) {
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-encoding']).toBe(coding);
      expect(reply.rawPayload.length).toBeGreaterThanOrEqual(PACED_FROM_BYTES);
      expect(reply.rawPayload.length).toBeLessThanOrEqual(SLICE_BYTES);
      expect(Number(reply.headers['content-length'])).toBe(reply.rawPayload.length);
      expect(decode(reply.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
    for (const [reply, encoding] of [
      [plain, undefined],
      [br, 'gzip, deflate, br, zstd'],
      [gzip, 'gzip'],
    ] as const) {
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.headers.vary).toBe('accept-encoding');
      expect(reply.headers['cache-control']).toBe('no-store');
      taken = writesTaken();
      const head = await get(encoding, 'HEAD');
      expect(head.rawPayload.length).toBe(0);
      // Nothing to write: no turn taken.
      expect(writesTaken()).toBe(taken);
      const { date: _headDate, ...headHeaders } = head.headers;
      const { date: _getDate, ...getHeaders } = reply.headers;
      expect(headHeaders).toEqual(getHeaders);
    }
    // A statement of ordinary length is written at once, as any reply.
    const dana = (await t.login('demo')).sessionId;
    taken = writesTaken();
    const small = await t.api('GET', apiPaths.statement('demo', 'en-US'), { session: dana });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(PACED_FROM_BYTES);
    expect(writesTaken()).toBe(taken);
  });

  it("answers another participant while Bea's statement is being built", async () => {
    const dana = (await t.login('demo')).sessionId;
    const order: string[] = [];
    let danas: Promise<void> | undefined;
    // As Bea's build starts (an English statement, not built yet), Dana asks for her own data.
    const whenBuilding = () => {
      danas ??= t.api('GET', apiPaths.user, { session: dana }).then((reply) => {
        expect(reply.json<UserData>().accountBalance).toBe(12_500);
        order.push('dana');
      });
    };
    subscribe(CHANNEL, whenBuilding);
    try {
      const beas = Array.from({ length: 3 }, () =>
        statement().then((reply) => {
          expect(reply.statusCode).toBe(200);
          order.push('bea');
        }),
      );
      await Promise.all(beas);
      await danas;
    } finally {
      unsubscribe(CHANNEL, whenBuilding);
    }
    expect(beasBuilds()).toBe(1);
    expect(order).toEqual(['dana', 'bea', 'bea', 'bea']);
  });

  it("refuses someone else's statement without building it", async () => {
    const dana = (await t.login('demo')).sessionId;
    expect((await statement(dana, 'ar')).statusCode).toBe(403);
    expect(builds).toEqual([]);
  });

  it('shows an entry written through another connection in the next statement', async () => {
    const before = (await statement()).json<StatementReply>();
    // Another process's connections to the same database.
    const other = createDatabase(t.database.config);
    try {
      await other.transaction().execute((trx) =>
        appendLedgerEntry(trx, {
          clientId: 'acme',
          participantId: beaId,
          occurredAt: '2026-11-20T09:00:00.000Z',
          description: 'Late bonus',
          amount: 40,
          kind: 'award',
        }),
      );
    } finally {
      await other.destroy();
    }
    const after = (await statement()).json<StatementReply>();
    expect(after.accountHistoryList).toHaveLength(before.accountHistoryList.length + 1);
    expect(after.accountHistoryList.map((e) => e.description)).toContain('Late bonus');
    expect(after.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(await balance());
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('never mixes two states of the ledger when entries are written while it is read a page at a time', async () => {
    const other = createDatabase(t.database.config);
    let written: Promise<void> | undefined;
    // As the build starts, after its first page: an old entry (on the first page) and a new one
    // (on the last) in one transaction. A reply with only the new one would match no balance ever held.
    const whenBuilding = () => {
      written ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        other.transaction().execute(async (trx) => {
          await appendLedgerEntry(trx, {
            clientId: 'acme',
            participantId: beaId,
            occurredAt: '2020-01-02T00:00:00.000Z',
            description: 'Backdated bonus',
            amount: 11,
            kind: 'award',
          });
          await appendLedgerEntry(trx, {
            clientId: 'acme',
            participantId: beaId,
            occurredAt: '2030-01-02T00:00:00.000Z',
            description: 'Future bonus',
            amount: 13,
            kind: 'award',
          });
        }),
      );
    };
    const before = await balance();
    subscribe(CHANNEL, whenBuilding);
    let reply: StatementReply;
    try {
      // Arabic: not built yet by the tests above.
      reply = (await statement(bea, 'ar')).json<StatementReply>();
      await written;
    } finally {
      unsubscribe(CHANNEL, whenBuilding);
      await other.destroy();
    }
    const descriptions = reply.accountHistoryList.map((e) => e.description);
    const sum = reply.accountHistoryList.reduce((total, e) => total + e.amountOrAward, 0);
    expect([sum, descriptions.includes('Backdated bonus'), descriptions.includes('Future bonus')]).toSatisfy(
      ([total, old, young]: [number, boolean, boolean]) => (total === before && !old && !young) || (total === before + 24 && old && young),
    );
    // And the next one has both.
    const next = (await statement(bea, 'ar')).json<StatementReply>();
    expect(next.accountHistoryList.reduce((total, e) => total + e.amountOrAward, 0)).toBe(before + 24);
    expect(next.accountHistoryList.at(-1)).toMatchObject({ description: 'Future bonus' });
  });

  it(
    "shows an operator's adjustment (rewards points adjust, its own process) in the next statement",
    { timeout: CLI_TIMEOUT },
    async () => {
      const before = (await statement()).json<StatementReply>();
      const adjust = await spawnRewards(t.database, [
        'points',
        'adjust',
        '--client',
        'acme',
        '--username',
        'bigspender',
        '--points=-7',
        '--reason',
        'ticket 4711',
      ]);
      expect(adjust.code).toBe(0);
      const after = (await statement()).json<StatementReply>();
      expect(after.accountHistoryList).toHaveLength(before.accountHistoryList.length + 1);
      expect(after.accountHistoryList).toContainEqual(expect.objectContaining({ description: 'Balance adjustment', amountOrAward: -7 }));
      expect(after.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(await balance());
      await expectLedgerMatchesBalances(t.database.db);
    },
  );

  it("shows the client's own wording of an item in the next statement", async () => {
    const key = 'ledger.item.spaDay';
    const before = (await statement()).json<StatementReply>().accountHistoryList.map((e) => e.description);
    expect(before.some((d) => d.includes('spa day'))).toBe(true);
    await t.database.db.insertInto('translations').values({ client_id: 'acme', locale: 'en-US', key, text: 'wellness day' }).execute();
    try {
      const after = (await statement()).json<StatementReply>().accountHistoryList.map((e) => e.description);
      expect(after.some((d) => d.includes('wellness day'))).toBe(true);
      expect(after.some((d) => d.includes('spa day'))).toBe(false);
    } finally {
      await t.database.db.deleteFrom('translations').where('client_id', '=', 'acme').where('key', '=', key).execute();
    }
  });
});
