import { randomUUID } from 'node:crypto';
import { CompiledQuery, PostgresAdapter, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ParticipantSearchReply, type ParticipantSearchResult } from '@rewards/contract';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID, seedOtherClient } from '../../../test/other-client.ts';
import type { Db } from '../../db/database.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { NEIGHBOUR_CLIENT_ID } from '../../db/seed/demo-neighbour.ts';
import type { Client } from '../clients/tables.ts';
import { participantRow, type ParticipantFields } from './fields.ts';
import { upsertParticipants } from './operator-store.ts';
import { updateParticipant } from './operator-service.ts';
import { compareCodePoints, SEARCH_COLUMNS, searchKeyColumns } from './search-keys.ts';
import { searchStatement } from './search-store.ts';
import { searchParticipants, type ParticipantSearchInput } from './search.ts';

const ACME = 'acme';
const NIMBUS = NEIGHBOUR_CLIENT_ID;
const GLOBEX = OTHER_CLIENT_ID;

interface Person {
  username: string;
  first: string;
  last: string;
  email?: string;
  account: string;
}

/** Enrols people as `participants create` and the import write them (participantRow). */
async function enrol(db: Db, clientId: string, people: Person[]): Promise<void> {
  const now = new Date().toISOString();
  await upsertParticipants(
    db,
    people.map((p) => {
      const fields: ParticipantFields = {
        username: p.username,
        firstName: p.first,
        lastName: p.last,
        email: p.email ?? `${p.username}@search.example`,
        locale: 'en-US',
        accountNumber: p.account,
        merchandise: true,
        experiences: true,
        ots: true,
        programs: [],
        status: 'active',
        dateOfBirth: null,
      };
      return participantRow(fields, {
        id: randomUUID(),
        clientId,
        usernameKey: p.username.toLowerCase(),
        passwordHash: '!',
        status: 'active',
        createdAt: now,
      });
    }),
  );
}

describe.each(dialects)('participant search on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await seedDemo(db);
    await seedOtherClient(db);
    await enrol(db, ACME, [
      { username: 'jdoe42', first: 'John', last: 'Doe', email: 'jd@corp.example', account: 'A-77' },
      { username: 'hmuller', first: 'Hans', last: 'Müller', email: 'hans.mueller@example.com', account: '3000001' },
      { username: 'kmuller', first: 'Karl', last: 'Muller', email: 'karl@example.com', account: '3000002' },
      { username: 'sobrien', first: 'Seán', last: "O'Brien", email: 'sean.obrien@example.com', account: '3000003' },
      { username: 'under_score', first: 'Ursula', last: 'Under', email: 'ursula@example.com', account: '50%OFF' },
      { username: 'dzed', first: 'Dana', last: 'Zed', email: 'dz@example.com', account: '3000005' },
      { username: 'zoe', first: 'ZOË', last: 'Zwart', email: 'zoe@example.com', account: '3000006' },
      { username: 'spaced', first: 'Mary  Ann', last: 'Van   Dyke', email: 'mav@example.com', account: '3000007' },
      { username: 'renamed', first: 'Renata', last: 'Rename', email: 'renata@example.com', account: '3000008' },
      { username: 'maria.garcia7', first: 'María', last: 'García', email: 'maria.garcia.7@example.com', account: '3000009' },
    ]);
  });
  afterAll(() => database.drop());

  const search = (query: string, clientIds: string[] = [ACME], page?: ParticipantSearchInput['page']) =>
    searchParticipants(db, { clientIds, query, page });
  const usernames = async (query: string, clientIds?: string[]) => (await search(query, clientIds)).participants.map((p) => p.username);
  const refused = (promise: Promise<unknown>) =>
    expect(promise).rejects.toMatchObject({ statusCode: 400, errorCode: ErrorCode.validation });

  it('finds Dana by first name, e-mail, account number, "first last" and "last first", each time once, with what the console shows', async () => {
    const { participants, next } = await search('dana');
    expect(ParticipantSearchReply.parse({ participants, next })).toEqual({ participants, next: null });
    expect(participants.map((p) => p.username)).toEqual(['demo', 'dzed']);
    expect(participants[0]).toEqual({
      clientId: ACME,
      id: expect.any(String) as unknown,
      username: 'demo',
      firstName: 'Dana',
      lastName: 'Demo',
      email: 'demo@example.com',
      accountNumber: '1000001',
      status: 'active',
      balance: 12_500,
      matchedOn: 'name',
    } satisfies Record<keyof ParticipantSearchResult, unknown>);
    expect(await usernames('demo@')).toEqual(['demo']);
    expect((await search('demo@')).participants[0]?.matchedOn).toBe('email');
    expect(await usernames('1000001')).toEqual(['demo']);
    expect((await search('1000001')).participants[0]?.matchedOn).toBe('accountNumber');
    expect(await usernames('dana de')).toEqual(['demo']);
    expect(await usernames('demo da')).toEqual(['demo']);
    // Username, last name and e-mail all start with "demo": one row.
    expect(await usernames('demo')).toEqual(['demo']);
  });

  it('finds by username and by last name', async () => {
    expect(await usernames('jdoe')).toEqual(['jdoe42']);
    expect((await search('jdoe')).participants[0]?.matchedOn).toBe('username');
    expect(await usernames('doe')).toEqual(['jdoe42']);
    expect(await usernames('zwart')).toEqual(['zoe']);
  });

  it('shows a participant whose keys share a start once, at the first key the query matches', async () => {
    const matched = async (query: string) => (await search(query)).participants.map((p) => `${p.username}:${p.matchedOn}`);
    expect(await matched('maria')).toEqual(['maria.garcia7:name']);
    expect(await matched('maria.garcia')).toEqual(['maria.garcia7:email']);
    expect(await matched('maria.garcia7')).toEqual(['maria.garcia7:username']);
    expect(await matched('garcia m')).toEqual(['maria.garcia7:name']);
  });

  it('ignores case, accents and repeated spaces on both sides', async () => {
    expect(await usernames('Müller')).toEqual(['hmuller', 'kmuller']);
    expect(await usernames('MULLER')).toEqual(['hmuller', 'kmuller']);
    expect(await usernames('muller h')).toEqual(['hmuller']);
    expect(await usernames('SEAN')).toEqual(['sobrien']);
    expect(await usernames('zoë')).toEqual(['zoe']);
    expect(await usernames('  Zoe  ')).toEqual(['zoe']);
    expect(await usernames('mary ann van')).toEqual(['spaced']);
    expect(await usernames('van dyke  mary')).toEqual(['spaced']);
    // The same letters decomposed (e + combining acute) as composed.
    expect(await usernames('Se\u0301an')).toEqual(['sobrien']);
  });

  it('shows only the clients asked for: one client never sees another\'s "demo"', async () => {
    const byClient = async (clientIds: string[]) =>
      (await search('demo', clientIds)).participants.map((p) => `${p.clientId}:${p.firstName}`);
    expect(await byClient([ACME])).toEqual(['acme:Dana']);
    expect(await byClient([NIMBUS])).toEqual(['nimbus:Noémie']);
    expect(await byClient([GLOBEX])).toEqual(['globex:Gina']);
    expect(await byClient([GLOBEX, ACME])).toEqual(['acme:Dana', 'globex:Gina']);
    expect(await byClient([ACME, NIMBUS, GLOBEX, ACME])).toEqual(['acme:Dana', 'globex:Gina', 'nimbus:Noémie']);
    // No client is no participant, never every client; an unknown client has nobody.
    expect(await byClient([])).toEqual([]);
    expect(await byClient(['no-such-client'])).toEqual([]);
    expect((await search('noémie', [ACME, GLOBEX])).participants).toEqual([]);
  });

  it('refuses a query too short or too long, a bad page size or cursor, with a validation error', async () => {
    for (const query of ['', ' ', 'a', ' é ', 'Ü', '  x  ']) await refused(search(query));
    await refused(search('a'.repeat(500)));
    await refused(search('ab\u0000'));
    await refused(search('\ud800ab'));
    for (const limit of [0, -1, 101, 2.5, Number.NaN]) await refused(search('dana', [ACME], { limit }));
    for (const after of [
      'not a cursor!',
      'eyJ4IjoxfQ',
      Buffer.from('[1,2,3,4]').toString('base64url'),
      Buffer.from('["a","acme",9,"x"]').toString('base64url'),
    ]) {
      await refused(search('dana', [ACME], { after }));
    }
  });

  it('takes SQL wildcards, quotes and statements as text: no match, or the literal match, never an error', async () => {
    expect(await usernames('%%')).toEqual([]);
    expect(await usernames('__')).toEqual([]);
    expect(await usernames('d%')).toEqual([]);
    expect(await usernames('d_')).toEqual([]);
    expect(await usernames('50%')).toEqual(['under_score']);
    expect(await usernames('5%')).toEqual([]);
    expect(await usernames('under_')).toEqual(['under_score']);
    expect(await usernames("o'b")).toEqual(['sobrien']);
    expect(await usernames("o'")).toEqual(['sobrien']);
    expect(await usernames("'; drop table participants; --")).toEqual([]);
    expect(await usernames('"demo"')).toEqual([]);
    expect(await usernames('\\d')).toEqual([]);
    expect(await usernames('a'.repeat(256))).toEqual([]);
    expect(await usernames('🙂🙂')).toEqual([]);
    expect(await usernames('dana')).toEqual(['demo', 'dzed']);
  });

  it('finds an updated participant by the new name, not by the old one', async () => {
    const client = await db.selectFrom('clients').selectAll().where('id', '=', ACME).executeTakeFirstOrThrow();
    const renata = await db
      .selectFrom('participants')
      .selectAll()
      .where('client_id', '=', ACME)
      .where('username_key', '=', 'renamed')
      .executeTakeFirstOrThrow();
    expect(await usernames('renata')).toEqual(['renamed']);
    const changed = await updateParticipant(db, { name: 'search-test', kind: 'operator', origin: 'test' }, client as Client, renata, {
      firstName: 'Dominika',
      lastName: 'Nowak',
      email: 'dominika@example.com',
      accountNumber: '7000008',
    });
    expect(changed).toEqual(['firstName', 'lastName', 'email', 'accountNumber']);
    for (const query of ['dominika', 'nowak do', 'dominika@', '7000008', 'renamed']) expect(await usernames(query)).toEqual(['renamed']);
    for (const query of ['renata', 'rename r', 'renata@', '3000008']) expect(await usernames(query)).toEqual([]);
  });

  describe('paging', () => {
    const PREFIX = 'pag';
    beforeAll(async () => {
      // Many matching keys per person ("page pagett3", "pagett3 page", "page.3", "page3@…"):
      // only one is shown, the others are skipped while reading.
      const many = (i: number): Person => ({
        username: `page.${i}`,
        first: 'Page',
        last: `Pagett${i}`,
        email: `page${i}@pages.example`,
        account: `PAGE-${i}`,
      });
      await enrol(
        db,
        ACME,
        Array.from({ length: 25 }, (_, i) => many(i)),
      );
      // The same names in another client: equal keys, ordered by client.
      await enrol(
        db,
        NIMBUS,
        Array.from({ length: 10 }, (_, i) => ({ ...many(i), email: `page${i}@nimbus.example` })),
      );
      // Equal keys in one client: ordered by id.
      await enrol(
        db,
        ACME,
        Array.from({ length: 5 }, (_, i) => ({ username: `same${i}`, first: 'Page', last: 'Same', account: `S-${i}` })),
      );
      // Found by one key only.
      await enrol(
        db,
        ACME,
        Array.from({ length: 5 }, (_, i) => ({
          username: `mail${i}`,
          first: 'Other',
          last: 'Person',
          email: `page.only${i}@x.example`,
          account: `M-${i}`,
        })),
      );
      await enrol(
        db,
        ACME,
        Array.from({ length: 5 }, (_, i) => ({ username: `acct${i}`, first: 'Third', last: 'Person', account: `PAG${i}` })),
      );
      // Found by account number after 25 account numbers ("page-0"…) shown by name: a read must
      // go past those before the page may show anything after them.
      await enrol(
        db,
        ACME,
        Array.from({ length: 3 }, (_, i) => ({ username: `late${i}`, first: 'Fourth', last: 'Person', account: `PAGE-Z${i}` })),
      );
      // In a client not asked for.
      await enrol(
        db,
        GLOBEX,
        Array.from({ length: 5 }, (_, i) => ({ username: `page.${i}`, first: 'Page', last: `Pagett${i}`, account: `G-${i}` })),
      );
    });

    /** Every participant of the clients with a key starting with the prefix, worked out here from the rows. */
    async function expected(clientIds: string[]): Promise<string[]> {
      const rows = await db.selectFrom('participants').selectAll().where('client_id', 'in', clientIds).execute();
      return rows
        .filter((row) => {
          const keys = searchKeyColumns(row);
          return SEARCH_COLUMNS.some((column) => keys[column].startsWith(PREFIX));
        })
        .map((row) => row.id);
    }

    async function allPages(clientIds: string[], limit: number): Promise<ParticipantSearchResult[]> {
      const found: ParticipantSearchResult[] = [];
      let after: string | undefined;
      for (let pages = 0; pages < 200; pages += 1) {
        const page = await search(PREFIX, clientIds, { limit, after });
        expect(page.participants.length).toBeLessThanOrEqual(limit);
        found.push(...page.participants);
        if (page.next === null) return found;
        // A page before the last is full.
        expect(page.participants).toHaveLength(limit);
        after = page.next;
      }
      throw new Error('more than 200 pages');
    }

    it('returns every match exactly once, in a stable order, whatever the page size', async () => {
      const clientIds = [ACME, NIMBUS];
      const want = await expected(clientIds);
      expect(want).toHaveLength(25 + 10 + 5 + 5 + 5 + 3);
      const one = await search(PREFIX, clientIds, { limit: 100 });
      expect(one.next).toBeNull();
      const ids = one.participants.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([...want].sort());
      expect(one.participants.every((p) => p.clientId === ACME || p.clientId === NIMBUS)).toBe(true);

      // The order: the key each is shown by, then the client.
      const rows = new Map((await db.selectFrom('participants').selectAll().where('id', 'in', ids).execute()).map((row) => [row.id, row]));
      const shownBy = (p: ParticipantSearchResult) => {
        const keys = searchKeyColumns(rows.get(p.id)!);
        return SEARCH_COLUMNS.map((column) => keys[column])
          .filter((key) => key.startsWith(PREFIX))
          .sort(compareCodePoints)[0]!;
      };
      for (let i = 1; i < one.participants.length; i += 1) {
        const [a, b] = [one.participants[i - 1]!, one.participants[i]!];
        const order = compareCodePoints(shownBy(a), shownBy(b)) || compareCodePoints(a.clientId, b.clientId);
        expect(order, `${a.username} before ${b.username}`).toBeLessThanOrEqual(0);
      }
      expect(one.participants.find((p) => p.username === 'mail0')?.matchedOn).toBe('email');
      expect(one.participants.find((p) => p.username === 'acct0')?.matchedOn).toBe('accountNumber');

      for (const limit of [1, 2, 3, 7, 25, 52, 53]) {
        expect(
          (await allPages(clientIds, limit)).map((p) => p.id),
          `pages of ${limit}`,
        ).toEqual(ids);
      }
    });

    it('pages one client without the other', async () => {
      const want = await expected([NIMBUS]);
      const found = await allPages([NIMBUS], 3);
      expect(found.map((p) => p.id).sort()).toEqual([...want].sort());
      expect(found.every((p) => p.clientId === NIMBUS)).toBe(true);
    });

    it('a cursor of one search continues another from the same place, and never leaks a client not asked for', async () => {
      const first = await search(PREFIX, [NIMBUS], { limit: 2 });
      expect(first.next).not.toBeNull();
      const acme = await search(PREFIX, [ACME], { limit: 100, after: first.next! });
      expect(acme.participants.every((p) => p.clientId === ACME)).toBe(true);
    });
  });

  it('reads each key column from its index alone: a range on (client_id, key), hidden keys skipped in the index, no table scan', async () => {
    const reads = SEARCH_COLUMNS.map((column) => ({ clientId: ACME, column, limit: 26 }));
    const cursorRead = {
      clientId: NIMBUS,
      column: 'search_username' as const,
      after: { key: 'page.1', id: 'x' },
      limit: 26,
      shownOnlyFor: 2,
      through: 'pagett',
    };
    const query = searchStatement(db, { from: 'pa', to: 'pa\u{10FFFF}' }, [...reads, cursorRead]).compile();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      // A few hundred rows would be read sequentially, or through a bitmap when the statistics say so (seen
      // once in a full run): asked to avoid both, the planner shows the index it can read in order.
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
        return result.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      for (const column of SEARCH_COLUMNS) {
        expect(plan).toMatch(
          new RegExp(
            `Index (Only )?Scan using participants_${column}_idx on participants[^\\n]*\\n\\s*Index Cond: \\(\\(client_id = '[^']+'::text\\) AND \\(${column} < [^\\n]*${column} >= `,
          ),
        );
      }
      expect(plan).toMatch(/Index Cond: [^\n]*search_username <= [^\n]*search_username_hidden < 2/);
      expect(plan).not.toMatch(/Seq Scan|Bitmap/);
      // Byte order whatever the database's collation: the range is then exactly the prefix.
      const collations = await sql<{ collation_name: string | null }>`
        select collation_name from information_schema.columns where table_name = 'participants' and column_name like 'search%' and data_type = 'text'`.execute(
        db,
      );
      expect(collations.rows.map((row) => row.collation_name)).toEqual(SEARCH_COLUMNS.map(() => 'C'));
    } else {
      const plan = (
        await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]))
      ).rows.map((row) => row.detail);
      for (const column of SEARCH_COLUMNS) {
        expect(plan).toContain(
          `SEARCH participants USING COVERING INDEX participants_${column}_idx (client_id=? AND ${column}>? AND ${column}<?)`,
        );
      }
      expect(plan).toContain(
        'SEARCH participants USING COVERING INDEX participants_search_username_idx (client_id=? AND search_username>? AND search_username<?)',
      );
      expect(plan.filter((line) => line.includes('participants'))).toHaveLength(reads.length + 1);
      expect(plan.some((line) => /SCAN participants/.test(line))).toBe(false);
    }
  });
});
