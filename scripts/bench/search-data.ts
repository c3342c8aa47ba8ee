/**
 * The search bench's data set: a million participants over four clients (40, 30, 20 and 10 %),
 * made by a seeded generator so every run has the same people. Names are drawn from lists with
 * accents (José, Müller, Zoë, Ångström…), a few of them rare; usernames, e-mail addresses and
 * account numbers are unique per client as the portal requires. Every row's search keys come
 * from `withSearchKeys`, as every writer of the portal makes them.
 *
 * SQLite: one prepared 500-row INSERT, in transactions of 100,000 rows, synchronous off while
 * it runs (the data is thrown away after the run). PostgreSQL: 10,000 rows a statement through
 * `unnest` of one array per column.
 */
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import type { NewParticipant } from '../../apps/server/src/modules/participants/tables.ts';
import { withSearchKeys } from '../../apps/server/src/modules/participants/search-keys.ts';

export const SEARCH_CLIENTS = [
  { id: 'bench-north', share: 0.4 },
  { id: 'bench-east', share: 0.3 },
  { id: 'bench-south', share: 0.2 },
  { id: 'bench-west', share: 0.1 },
] as const;

const FIRST = [
  'María',
  'Maria',
  'Mario',
  'Marc',
  'Marco',
  'Marta',
  'Martin',
  'Martín',
  'Mathilde',
  'Matteo',
  'Max',
  'Maya',
  'Mei',
  'Mila',
  'Mohamed',
  'José',
  'Josef',
  'Joséphine',
  'Juan',
  'Julia',
  'Jürgen',
  'Jan',
  'Jana',
  'Javier',
  'Jean',
  'Jeanne',
  'Joan',
  'João',
  'Jonas',
  'Jörg',
  'Ana',
  'Anaïs',
  'Andrea',
  'André',
  'Anna',
  'Anne',
  'Antoine',
  'Ángel',
  'Astrid',
  'Aurélie',
  'Ava',
  'Axel',
  'Ayşe',
  'Aziz',
  'Adèle',
  'Dana',
  'Daniel',
  'Daniela',
  'David',
  'Diego',
  'Dominik',
  'Dorothée',
  'Elena',
  'Élise',
  'Emil',
  'Emma',
  'Eric',
  'Erik',
  'Eva',
  'Ewa',
  'Fatima',
  'Felix',
  'François',
  'Françoise',
  'Frida',
  'Gabriel',
  'Gaëlle',
  'Hanna',
  'Hannah',
  'Hans',
  'Héctor',
  'Helena',
  'Hugo',
  'Ida',
  'Inès',
  'Ingrid',
  'Isabel',
  'Ivan',
  'Karl',
  'Karin',
  'Katarzyna',
  'Kim',
  'Lars',
  'Laura',
  'Léa',
  'Leo',
  'Liam',
  'Lina',
  'Louis',
  'Lucía',
  'Lukas',
  'Łukasz',
  'Magnus',
  'Nina',
  'Noah',
  'Noémie',
  'Nora',
  'Olga',
  'Oliver',
  'Paul',
  'Pedro',
  'Pia',
  'Rafael',
  'Renée',
  'Sara',
  'Sofía',
  'Søren',
  'Stefan',
  'Sven',
  'Théo',
  'Thomas',
  'Tomás',
  'Ursula',
  'Victor',
  'Wei',
  'Yusuf',
  'Zoë',
  'Zoé',
  'Zofia',
];
const LAST = [
  'García',
  'Garcia',
  'Martínez',
  'Martin',
  'Müller',
  'Muller',
  'Mueller',
  'Meyer',
  'Moreau',
  'Mäkinen',
  'Marino',
  'Mendes',
  'Morales',
  'Smith',
  'Schmidt',
  'Schneider',
  'Silva',
  'Santos',
  'Sánchez',
  'Svensson',
  'Sørensen',
  'Novák',
  'Nowak',
  'Nielsen',
  'Nguyen',
  'Johansson',
  'Jensen',
  'Jiménez',
  'Janssen',
  'Dubois',
  'Durand',
  'Díaz',
  'Demir',
  'Costa',
  'Côté',
  'Kowalski',
  'Kovačević',
  'Fischer',
  'Fernández',
  'Ferreira',
  'Hansen',
  'Hernández',
  'Horváth',
  'Lefèvre',
  'López',
  'Lambert',
  'Larsen',
  'Weber',
  'Wagner',
  'Bernard',
  'Becker',
  'Brown',
  'Bianchi',
  'Rossi',
  'Russo',
  'Rodríguez',
  'Richter',
  'Petit',
  'Pérez',
  'Popescu',
  'Olsen',
  'Öztürk',
  'Ångström',
  'Åberg',
  'Çelik',
  'Yılmaz',
  'Zimmermann',
  'Wójcik',
  'Taylor',
  'Thomas',
  'Tremblay',
  'Gómez',
  'González',
  'Girard',
];
/** Drawn once in a thousand: the "rare prefix" case finds a few hundred people, not tens of thousands. */
const RARE_LAST = ['Quennell', 'Xiradakis', 'Yzerman'];
const DOMAINS = ['example.com', 'mail.example', 'corp.example', 'post.example'];

/** mulberry32: small, fast and the same sequence for the same seed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The name as it goes into a username or an e-mail address: plain lower-case letters. */
const ASCII = new Map(
  [...FIRST, ...LAST, ...RARE_LAST].map((name) => [
    name,
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[łŁ]/g, 'l')
      .replace(/[øØ]/g, 'o')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase(),
  ]),
);

/** The participant number `n` (0-based, over all clients) of the set, with its search keys. */
export function benchParticipants(count: number, createdAt: string): Generator<NewParticipant> {
  return (function* () {
    const random = generator(20_261_125);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const hex = (digits: number) =>
      Math.floor(random() * 16 ** digits)
        .toString(16)
        .padStart(digits, '0');
    let n = 0;
    for (const [c, client] of SEARCH_CLIENTS.entries()) {
      const size = c === SEARCH_CLIENTS.length - 1 ? count - n : Math.round(count * client.share);
      for (let i = 0; i < size; i += 1, n += 1) {
        const first = pick(FIRST);
        const last = random() < 0.001 ? pick(RARE_LAST) : pick(LAST);
        const [f, l] = [ASCII.get(first)!, ASCII.get(last)!];
        const style = random();
        const username = style < 0.5 ? `${f}.${l}${i}` : style < 0.8 ? `${f[0]}${l}${i}` : `member${i}`;
        const email = style < 0.3 ? `${username}@${pick(DOMAINS)}` : `${f}.${l}.${i}@${pick(DOMAINS)}`;
        yield withSearchKeys({
          // A version-4 UUID's shape, random as the portal's ids are.
          id: `${hex(8)}-${hex(4)}-4${hex(3)}-${hex(4)}-${hex(6)}${hex(6)}`,
          client_id: client.id,
          username,
          username_key: username.toLowerCase(),
          email,
          first_name: first,
          last_name: last,
          password_hash: '!',
          status: random() < 0.9 ? 'active' : 'pending',
          locale: 'en-US',
          account_number: String(10_000_000 + n),
          offers_merchandise: 1,
          offers_experiences: 1,
          ots_enabled: 1,
          privacy_ack_version: 0,
          date_of_birth: null,
          balance: Math.floor(random() * 50_000),
          created_at: createdAt,
        });
      }
    }
  })();
}

const COLUMNS = [
  'id',
  'client_id',
  'username',
  'username_key',
  'email',
  'first_name',
  'last_name',
  'password_hash',
  'status',
  'locale',
  'account_number',
  'offers_merchandise',
  'offers_experiences',
  'ots_enabled',
  'privacy_ack_version',
  'date_of_birth',
  'balance',
  'created_at',
  'search_first_last',
  'search_first_last_hidden',
  'search_last_first',
  'search_last_first_hidden',
  'search_username',
  'search_username_hidden',
  'search_email',
  'search_email_hidden',
  'search_account',
  'search_account_hidden',
] as const satisfies readonly (keyof NewParticipant)[];
const INTEGER_COLUMNS = new Set<string>([
  'offers_merchandise',
  'offers_experiences',
  'ots_enabled',
  'privacy_ack_version',
  'balance',
  ...COLUMNS.filter((c) => c.endsWith('_hidden')),
]);

/** The bench's clients, bare: what a participants row refers to. */
export async function addSearchClients(db: Db): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('clients')
    .values(
      SEARCH_CLIENTS.map(({ id }) => ({
        id,
        name: id,
        portal_url: `https://${id}.example`,
        default_locale: 'en-US',
        logo: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        brand_color: '#000000',
        privacy_notice_version: 0,
        sso_type: 'login_only',
        sso_logout_type: 'login',
        site_name: id,
        site_url: `https://${id}.example`,
        password_rules: JSON.stringify({
          minLength: 8,
          maxLength: 64,
          requireUpper: false,
          requireLower: false,
          requireDigit: false,
          requireSymbol: false,
          notUsername: false,
        }),
        activation_fields: '[]',
        countries: '[]',
        created_at: now,
      })),
    )
    .execute();
}

/** Writes `count` participants into the (migrated, closed) SQLite file at `path`. */
export function fillSqlite(path: string, count: number): void {
  const database = new DatabaseSync(path);
  try {
    // No journal and no syncing while it is written (WAL again at the end, as the portal opens it).
    database.exec('PRAGMA journal_mode = OFF');
    database.exec('PRAGMA synchronous = OFF');
    database.exec('PRAGMA cache_size = -262144'); // 256 MiB: the indexes' pages stay in memory while they grow
    // The search indexes are built after the rows, as migration 020 builds them (one sort each
    // instead of a million inserts), from their own definitions.
    const indexes = database
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and tbl_name = 'participants' and name like 'participants_search%'",
      )
      .all() as { name: string; sql: string }[];
    if (indexes.length === 0) throw new Error('the search indexes of migration 020 are missing');
    for (const index of indexes) database.exec(`drop index ${index.name}`);
    const ROWS = 500;
    const tuple = `(${COLUMNS.map(() => '?').join(',')})`;
    const insertMany = database.prepare(
      `insert into participants (${COLUMNS.join(',')}) values ${Array.from({ length: ROWS }, () => tuple).join(',')}`,
    );
    const insertOne = database.prepare(`insert into participants (${COLUMNS.join(',')}) values ${tuple}`);
    let values: (string | number | null)[] = [];
    let inBatch = 0;
    let inTransaction = 0;
    database.exec('begin');
    for (const row of benchParticipants(count, new Date().toISOString())) {
      for (const column of COLUMNS) values.push((row[column] ?? null) as string | number | null);
      inBatch += 1;
      if (inBatch === ROWS) {
        insertMany.run(...values);
        values = [];
        inBatch = 0;
      }
      inTransaction += 1;
      if (inTransaction === 100_000) {
        database.exec('commit');
        database.exec('begin');
        inTransaction = 0;
      }
    }
    for (let from = 0; from < values.length; from += COLUMNS.length) insertOne.run(...values.slice(from, from + COLUMNS.length));
    database.exec('commit');
    for (const index of indexes) database.exec(index.sql);
    database.exec('ANALYZE');
    database.exec('PRAGMA journal_mode = WAL');
  } finally {
    database.close();
  }
}

/** Writes `count` participants into a migrated PostgreSQL database. */
export async function fillPostgres(db: Db, count: number): Promise<void> {
  const indexes = (
    await sql<{
      indexname: string;
      indexdef: string;
    }>`select indexname, indexdef from pg_indexes where tablename = 'participants' and indexname like 'participants_search%'`.execute(db)
  ).rows;
  if (indexes.length === 0) throw new Error('the search indexes of migration 020 are missing');
  for (const index of indexes) await sql`drop index ${sql.ref(index.indexname)}`.execute(db);
  const ROWS = 10_000;
  let batch: NewParticipant[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const arrays = COLUMNS.map(
      (column) => sql`${batch.map((row) => row[column] ?? null)}::${sql.raw(INTEGER_COLUMNS.has(column) ? 'int[]' : 'text[]')}`,
    );
    await sql`insert into participants (${sql.join(COLUMNS.map((c) => sql.ref(c)))}) select * from unnest(${sql.join(arrays)})`.execute(db);
    batch = [];
  };
  for (const row of benchParticipants(count, new Date().toISOString())) {
    batch.push(row);
    if (batch.length === ROWS) await flush();
  }
  await flush();
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  // What autovacuum does to a table in use: statistics, and the visibility map that lets the
  // search read keys from the index alone.
  await sql`vacuum analyze participants`.execute(db);
}
