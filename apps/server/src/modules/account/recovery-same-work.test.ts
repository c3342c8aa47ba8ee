import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, type Dialect, type Driver, type LogEvent } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../config.ts';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { registerDataGeneration } from '../../db/read-cache.ts';
import { rowCount } from '../../db/row-count.ts';
import { nodeSqliteDialect } from '../../db/node-sqlite-dialect.ts';
import { withPreparedStatements } from '../../db/prepared-statements.ts';
import type { Database } from '../../db/schema.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { createMailDelivery } from '../mail/delivery.ts';
import { NO_MAIL_TEMPLATE } from '../mail/outbox.ts';
import { appOver, type AppOver } from '../../../test/app-over.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { addParticipant, postFrom } from './test-support.ts';

/**
 * Issue 27 section 4, decisions 018 and 042: forgot user id and forgot password must not tell a
 * match by the work they do. Counted, not timed (the times are the bench's, `--only=forgot`):
 * every statement the app sends and every transaction's begin and commit, recorded on the way
 * to the database, for a match and for a miss.
 */

/** The driver as Kysely sees it, telling `record` of each transaction it begins and ends. */
function recordingDriver(driver: Driver, record: (event: string) => void): Driver {
  return {
    init: () => driver.init(),
    acquireConnection: () => driver.acquireConnection(),
    beginTransaction: (connection, settings) => {
      record('[begin]');
      return driver.beginTransaction(connection, settings);
    },
    commitTransaction: (connection) => {
      record('[commit]');
      return driver.commitTransaction(connection);
    },
    rollbackTransaction: (connection) => {
      record('[rollback]');
      return driver.rollbackTransaction(connection);
    },
    releaseConnection: (connection) => driver.releaseConnection(connection),
    destroy: () => driver.destroy(),
  };
}

function recordingDialect(dialect: Dialect, record: (event: string) => void): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => recordingDriver(dialect.createDriver(), record),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/**
 * A database object over the test database, as `createDatabase` makes one, that records into
 * `events`: "[begin]", "[commit]", "[rollback]" and each statement's SQL (on PostgreSQL, the
 * driver's own "begin" and "commit" among them), in order.
 */
function recordingDatabase(config: DatabaseConfig, events: string[]): Db {
  const record = (event: string): void => {
    events.push(event);
  };
  const log = { log: (event: LogEvent) => record(event.query.sql) };
  if (config.dialect === 'sqlite') {
    const sqlite = nodeSqliteDialect(config.path);
    const db = new Kysely<Database>({ dialect: recordingDialect(sqlite, record), ...log });
    registerDataGeneration(db, () => sqlite.dataGeneration());
    return db;
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 10 });
  // As createDatabase's: a client that loses its server (the test database dropped WITH (FORCE)
  // while a connection is still closing) must not be an uncaught error of the whole run.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: recordingDialect(new PostgresDialect({ pool: withPreparedStatements(pool) }), record), ...log });
}

/** The sweep of ended attempt windows runs about once a minute on whichever attempt comes along (decision 040). */
const ENDED_WINDOWS_SWEEP = /^delete from "attempt_limits" where "window_ends_at" <= /;

describe.each(dialects)('forgot user id and forgot password do the same database work for a match and a miss on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let portal: AppOver;
  const events: string[] = [];
  let address = 0;
  let outboxDir: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Only this object writes to the file from here on (two SQLite writers of one process would wait on each other).
    db = recordingDatabase(database.config, events);
    await seedDemo(db);
    portal = await appOver({ ...database, db });
    outboxDir = mkdtempSync(join(tmpdir(), 'rewards-outbox-'));
    for (const [username, accountNumber] of [
      ['same-work-a', '4270001'],
      ['same-work-b', '4270002'],
      ['same-work-warm', '4270003'],
      ['reset-same-a', '4270011'],
      ['reset-same-warm', '4270012'],
    ] as const)
      await addParticipant({ database: { db } }, { username, lastName: 'Same', accountNumber, status: 'active' });
  });
  afterAll(async () => {
    await portal.close();
    await db.destroy();
    await database.drop();
    rmSync(outboxDir, { recursive: true, force: true });
  });

  /** What one call did with the database: statements and transactions in order, the minute's sweep left out. */
  const workOf = async (call: () => Promise<unknown>) => {
    events.length = 0;
    await call();
    const work = events.filter((event) => !ENDED_WINDOWS_SWEEP.test(event));
    events.length = 0;
    return work;
  };
  /** One request from an address of its own (no attempt limit is reached), and what it did before its reply. */
  const ask = async (path: '/forgotUsername' | '/forgotPassword', body: Record<string, string>) => {
    address += 1;
    let status = 0;
    const work = await workOf(async () => {
      status = (await postFrom(portal, `10.27.0.${address}`, path, body)).statusCode;
    });
    expect(status).toBe(200);
    return work;
  };
  const rowCounts = async () => {
    const count = (table: 'attempt_limits' | 'mail_outbox' | 'password_resets') => rowCount(db, table);
    return {
      attempt_limits: await count('attempt_limits'),
      mail_outbox: await count('mail_outbox'),
      password_resets: await count('password_resets'),
    };
  };
  /** The rows each table gained during `call`. */
  const rowsWrittenBy = async (call: () => Promise<unknown>) => {
    const before = await rowCounts();
    await call();
    const after = await rowCounts();
    return {
      attempt_limits: after.attempt_limits - before.attempt_limits,
      mail_outbox: after.mail_outbox - before.mail_outbox,
      password_resets: after.password_resets - before.password_resets,
    };
  };
  const newestOutboxRow = () =>
    db
      .selectFrom('mail_outbox')
      .select(['template', 'to_address', 'participant_id', 'params'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
  /** One pass of the mail worker, as the server runs it without SMTP; what it did with the database. */
  const workerPass = () =>
    workOf(async () => {
      const delivery = createMailDelivery({
        db,
        mail: { ...loadConfig({}).mail, smtpUrl: undefined, outboxDir },
        log: { info: () => {}, warn: () => {} },
      });
      try {
        await delivery.deliverDue();
      } finally {
        delivery.close();
      }
    });

  it('forgot user id: the same statements in the same transactions, the same rows, and a stand-in row for the mail', async () => {
    // First calls compile and prepare what later ones reuse, on both paths alike.
    await ask('/forgotUsername', { emailAddress: 'same-work-warm@example.com' });
    await ask('/forgotUsername', { emailAddress: 'nobody-warm@example.com' });
    await workerPass();

    let match: string[] = [];
    let miss: string[] = [];
    const matchRows = await rowsWrittenBy(async () => (match = await ask('/forgotUsername', { emailAddress: 'same-work-a@example.com' })));
    const matchRow = await newestOutboxRow();
    const missRows = await rowsWrittenBy(async () => (miss = await ask('/forgotUsername', { emailAddress: 'nobody-27@example.com' })));
    const missRow = await newestOutboxRow();

    // Two transactions (the attempt slots, then the lookup and the outbox row) with the same statements.
    expect(match.filter((event) => event === '[commit]')).toHaveLength(2);
    expect(match).toContainEqual(expect.stringMatching(/^insert into "mail_outbox"/));
    expect(miss).toEqual(match);
    expect(missRows).toEqual(matchRows);
    expect(matchRows).toEqual({ attempt_limits: 3, mail_outbox: 1, password_resets: 0 });

    expect(matchRow).toMatchObject({ template: 'forgotUsername', to_address: 'same-work-a@example.com' });
    // The miss's row stands in for the same mail, keeps nothing the caller typed, and is never sent.
    expect(missRow).toMatchObject({ template: NO_MAIL_TEMPLATE, to_address: '', participant_id: null });
    const matchParams = JSON.parse(matchRow.params ?? '{}') as { values: Record<string, string> };
    const missParams = JSON.parse(missRow.params ?? '{}') as { values: Record<string, string>; standsFor: string };
    expect(missParams.standsFor).toBe('forgotUsername');
    expect(Object.keys(missParams.values)).toEqual(Object.keys(matchParams.values));
  });

  it("forgot user id: the mail worker's pass after a miss runs the statements of a match's", async () => {
    await workerPass();
    await ask('/forgotUsername', { emailAddress: 'same-work-b@example.com' });
    const afterMatch = await workerPass();
    await ask('/forgotUsername', { emailAddress: 'nobody-27b@example.com' });
    const afterMiss = await workerPass();

    // Claimed, rendered (the client, its texts, the greeting's name), built, and marked by one
    // update alike: sent, or dropped for the stand-in. Only the delivery (here the .eml) differs.
    expect(afterMatch.at(-1)).toMatch(/^update "mail_outbox" set "status" = /);
    // As a multiset: the client's texts and locales are read at once (in either order on PostgreSQL).
    expect([...afterMiss].sort()).toEqual([...afterMatch].sort());
    // Every stand-in so far: dropped, holding nothing.
    const standIns = await db
      .selectFrom('mail_outbox')
      .select(['status', 'params', 'to_address'])
      .where('template', '=', NO_MAIL_TEMPLATE)
      .execute();
    expect(standIns.length).toBeGreaterThan(0);
    for (const row of standIns) expect(row).toEqual({ status: 'dropped', params: null, to_address: '' });
  });

  it('a stand-in whose worker died while building it is deleted by the next pass, not kept as a failed mail; a dropped one a day after', async () => {
    await workerPass();
    await db.deleteFrom('mail_outbox').where('template', '=', NO_MAIL_TEMPLATE).execute();
    await ask('/forgotUsername', { emailAddress: 'nobody-27c@example.com' });
    await db
      .updateTable('mail_outbox')
      .set({ status: 'sending', claimed_until: new Date(Date.now() - 60_000).toISOString(), attempts: 1 })
      .where('template', '=', NO_MAIL_TEMPLATE)
      .execute();
    await workerPass();
    expect(await db.selectFrom('mail_outbox').select('status').where('template', '=', NO_MAIL_TEMPLATE).execute()).toEqual([]);

    await ask('/forgotUsername', { emailAddress: 'nobody-27d@example.com' });
    await workerPass();
    const dropped = () => db.selectFrom('mail_outbox').select('status').where('template', '=', NO_MAIL_TEMPLATE).execute();
    expect(await dropped()).toEqual([{ status: 'dropped' }]);
    await db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(Date.now() - 25 * 60 * 60_000).toISOString() })
      .where('template', '=', NO_MAIL_TEMPLATE)
      .execute();
    await workerPass();
    expect(await dropped()).toEqual([]);
  });

  it('forgot password: the same statements in the same transactions; only the link of a match is a row', async () => {
    await ask('/forgotPassword', { userName: 'reset-same-warm', emailAddress: 'reset-same-warm@example.com' });
    await ask('/forgotPassword', { userName: 'nobody-warm', emailAddress: 'nobody-warm@example.com' });

    let match: string[] = [];
    let miss: string[] = [];
    const matchRows = await rowsWrittenBy(
      async () => (match = await ask('/forgotPassword', { userName: 'reset-same-a', emailAddress: 'reset-same-a@example.com' })),
    );
    const missRows = await rowsWrittenBy(
      async () => (miss = await ask('/forgotPassword', { userName: 'nobody-27', emailAddress: 'nobody-27@example.com' })),
    );

    expect(match.filter((event) => event === '[commit]')).toHaveLength(2);
    expect(match).toContainEqual(expect.stringMatching(/^insert into "password_resets"/));
    expect(miss).toEqual(match);
    // The one difference, in the same statement: the link's hash is stored for a participant only.
    expect(matchRows).toEqual({ attempt_limits: 3, mail_outbox: 1, password_resets: 1 });
    expect(missRows).toEqual({ ...matchRows, password_resets: 0 });
    expect(await newestOutboxRow()).toMatchObject({ template: NO_MAIL_TEMPLATE, to_address: '', participant_id: null });
  });
});
