import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

/** node:sqlite binds no booleans or undefined; Kysely may hand us either. */
function toSqliteValue(value: unknown): SqliteValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SqliteValue;
}

function bind(parameters: readonly unknown[]): SqliteValue[] {
  const values = new Array<SqliteValue>(parameters.length);
  for (let i = 0; i < parameters.length; i += 1) values[i] = toSqliteValue(parameters[i]);
  return values;
}

interface CachedStatement {
  statement: StatementSync;
  /** A statement that yields columns is a reader (SELECT, or any statement with RETURNING). */
  reader: boolean;
}

/**
 * Prepared statements kept by SQL text, least recently used dropped first (lru-cache's memo:
 * prepared on a miss). Preparing was a quarter of a request's time (docs/decisions/014); the bound
 * keeps the memory each statement holds in SQLite finite when queries are built with varying
 * shapes (IN lists, bulk inserts).
 */
function preparedStatements(database: DatabaseSync, capacity: number): LRUCache<string, CachedStatement> {
  return new LRUCache<string, CachedStatement>({
    max: capacity,
    memoMethod: (sql) => {
      const statement = database.prepare(sql);
      return { statement, reader: statement.columns().length > 0 };
    },
  });
}

/** FIFO lock: SQLite has one connection, and a transaction owns it from begin to commit. */
class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

/** One real SQLite transaction that several logical ones share; each waits for its COMMIT. */
interface Batch {
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
  flushScheduled: boolean;
}

/**
 * Commits made by any driver of this process. A data generation read earlier in the same
 * event-loop turn is reused only while this has not moved (see dataGeneration below).
 */
let localCommits = 0;

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const READ = /^\s*select\b/i;
const ITEM_SAVEPOINT = 'group_commit_item';

/**
 * Group commit (docs/decisions/014). With WAL and synchronous=FULL every COMMIT is an fsync
 * that blocks the event loop, and the disk allows only a few thousand a second, so one commit
 * per write caps the portal far below that. Instead, the transactions and writes that arrive
 * together share one real transaction on the writer connection:
 * - a logical transaction is a SAVEPOINT inside the open batch; its rollback undoes only it;
 * - a write outside a transaction runs inside the batch (a failed statement undoes only itself);
 * - nothing done inside a batch returns to its caller before the batch has committed, so an
 *   acknowledged write is durable (an fsync'd commit), and a crash loses only unacknowledged work;
 * - the batch commits as soon as those already waiting for the writer have had their turn (the
 *   COMMIT queues on the same FIFO lock), so a lone request waits for no one;
 * - a SELECT outside a transaction runs on a second, read-only connection, which in WAL mode
 *   sees only committed data and needs no lock: reads neither wait for a batch nor see one.
 * If the COMMIT fails, every caller in the batch gets the error; none was acknowledged.
 */
class GroupCommitDriver implements Driver {
  readonly #writer: DatabaseSync;
  readonly #statements: LRUCache<string, CachedStatement>;
  readonly #reader: DatabaseSync | undefined;
  readonly #readStatements: LRUCache<string, CachedStatement> | undefined;
  readonly #mutex = new Mutex();
  #batch: Batch | undefined;
  readonly #dataVersion: StatementSync | undefined;
  #generation: number | undefined;
  #generationCommits = -1;
  #closed = false;

  constructor(writer: DatabaseSync, reader: DatabaseSync | undefined, statementCacheSize: number) {
    this.#writer = writer;
    this.#statements = preparedStatements(writer, statementCacheSize);
    this.#reader = reader;
    this.#readStatements = reader ? preparedStatements(reader, statementCacheSize) : undefined;
    this.#dataVersion = reader?.prepare('PRAGMA data_version');
    this.#dataVersion?.setReturnArrays(true);
  }

  /**
   * A number that changes whenever anyone (this process's writer, another process, the CLI)
   * has committed to the file since it was last read (docs/decisions/027). SQLite's
   * `data_version` on the read-only connection, which never writes itself, moves on every
   * commit of any other connection. Reading it is a read transaction (~7 µs), so a value is
   * reused for the rest of the event-loop turn that read it, unless a commit of this process
   * happened meanwhile: another process's commit shows at the latest one turn later.
   * Undefined for an in-memory database (no reader).
   */
  dataGeneration(): number | undefined {
    const dataVersion = this.#dataVersion;
    // After destroy() nothing can be read, and nothing may be served from memory either.
    if (!dataVersion || this.#closed) return undefined;
    if (this.#generation !== undefined && this.#generationCommits === localCommits) return this.#generation;
    const row = dataVersion.get() as unknown as [number];
    const generation = Number(row[0]);
    if (this.#generation === undefined) setImmediate(() => (this.#generation = undefined));
    this.#generation = generation;
    this.#generationCommits = localCommits;
    return generation;
  }

  async init(): Promise<void> {}

  /** The lock is taken lazily: a lease that only reads never waits for the writer. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    await this.lock(lease);
    this.#openBatch();
    this.#writer.exec(`SAVEPOINT ${ITEM_SAVEPOINT}`);
    lease.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    this.#writer.exec(`RELEASE ${ITEM_SAVEPOINT}`);
    lease.inTransaction = false;
    await this.waitForCommit(lease);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    lease.inTransaction = false;
    // A failed COMMIT or an I/O error may already have ended the real transaction; and after a
    // failed COMMIT the lease no longer holds the writer, which may be in another caller's batch
    // by now: only a lease still holding it has anything of its own to undo (decision 093).
    if (lease.holdsLock && this.#writer.isTransaction) {
      this.#writer.exec(`ROLLBACK TO ${ITEM_SAVEPOINT}`);
      this.#writer.exec(`RELEASE ${ITEM_SAVEPOINT}`);
    }
    await this.#settleAfterFailure(lease);
  }

  /**
   * A transaction or statement that failed may have failed on what another one in the same
   * batch wrote (a unique key taken by a twin): its caller hears of the failure only once that
   * batch has committed, so what it reads next (on the reader) shows why.
   */
  async #settleAfterFailure(lease: Lease): Promise<void> {
    try {
      await this.waitForCommit(lease);
    } catch {
      // The caller's own error is the one to report.
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`SAVEPOINT "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`ROLLBACK TO "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`RELEASE "${name}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.release(connection as Lease);
  }

  async destroy(): Promise<void> {
    await this.#mutex.lock();
    this.#closed = true;
    if (this.#batch) this.#commitBatch();
    this.#statements.clear();
    this.#readStatements?.clear();
    this.#reader?.close();
    this.#writer.close();
  }

  /** Runs one statement: a plain read on the reader, anything else under the writer's lock. */
  async execute(lease: Lease, sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    if (!lease.inTransaction && this.#readStatements && READ.test(sql)) {
      const { statement } = this.#readStatements.memo(sql);
      return { rows: statement.all(...bind(parameters)) };
    }
    await this.lock(lease);
    if (!lease.inTransaction && !this.#batch && WRITE.test(sql)) this.#openBatch();
    let result: QueryResult<unknown>;
    try {
      const { statement, reader } = this.#statements.memo(sql);
      if (reader) result = { rows: statement.all(...bind(parameters)) };
      else {
        const { changes, lastInsertRowid } = statement.run(...bind(parameters));
        result = { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
      }
    } catch (error) {
      if (!lease.inTransaction) await this.#settleAfterFailure(lease);
      throw error;
    }
    // Outside a transaction, a statement that ran inside an open batch answers after the commit.
    if (!lease.inTransaction && this.#batch) await this.waitForCommit(lease);
    else if (!lease.inTransaction) localCommits += 1; // autocommitted (schema changes)
    return result;
  }

  async iterate(lease: Lease, sql: string, parameters: readonly unknown[]): Promise<Iterator<unknown>> {
    if (!lease.inTransaction && this.#readStatements) return this.#readStatements.memo(sql).statement.iterate(...bind(parameters));
    await this.lock(lease);
    return this.#statements.memo(sql).statement.iterate(...bind(parameters));
  }

  /** Gives up the lock and resolves once what the lease did is committed (at once if no batch). */
  async waitForCommit(lease: Lease): Promise<void> {
    const batch = this.#batch;
    this.release(lease);
    if (batch) await batch.committed;
  }

  async lock(lease: Lease): Promise<void> {
    if (lease.holdsLock) return;
    await this.#mutex.lock();
    lease.holdsLock = true;
  }

  release(lease: Lease): void {
    if (!lease.holdsLock) return;
    lease.holdsLock = false;
    if (lease.inTransaction) {
      // Kysely always ends a transaction before releasing; undo it rather than commit half of it.
      lease.inTransaction = false;
      if (this.#writer.isTransaction) {
        this.#writer.exec(`ROLLBACK TO ${ITEM_SAVEPOINT}`);
        this.#writer.exec(`RELEASE ${ITEM_SAVEPOINT}`);
      }
    }
    this.#scheduleFlush();
    this.#mutex.unlock();
  }

  #openBatch(): void {
    if (this.#batch) return;
    // IMMEDIATE: take the write lock now (waiting up to busy_timeout for another process), so
    // the batch cannot fail later on a lock upgrade.
    this.#writer.exec('BEGIN IMMEDIATE');
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A batch whose callers all failed before waiting must not leave an unhandled rejection.
    committed.catch(() => {});
    this.#batch = { committed, resolve, reject, flushScheduled: false };
  }

  #scheduleFlush(): void {
    const batch = this.#batch;
    if (!batch || batch.flushScheduled) return;
    batch.flushScheduled = true;
    // setImmediate lets the requests whose I/O completed in this turn join the batch first.
    setImmediate(() => {
      void this.#mutex.lock().then(() => {
        try {
          if (this.#batch === batch) this.#commitBatch();
        } finally {
          this.#mutex.unlock();
        }
      });
    });
  }

  #commitBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    try {
      if (this.#writer.isTransaction) this.#writer.exec('COMMIT');
      localCommits += 1;
      batch.resolve();
    } catch (error) {
      try {
        if (this.#writer.isTransaction) this.#writer.exec('ROLLBACK');
      } catch {
        // The transaction is gone either way; the callers learn of the failed commit below.
      }
      batch.reject(error);
    }
  }
}

/** The connection handed to Kysely for one acquire; the SQLite connections themselves are shared. */
class Lease implements DatabaseConnection {
  readonly #driver: GroupCommitDriver;
  inTransaction = false;
  holdsLock = false;

  constructor(driver: GroupCommitDriver) {
    this.#driver = driver;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.#driver.execute(this, compiledQuery.sql, compiledQuery.parameters)) as QueryResult<R>;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const rows = await this.#driver.iterate(this, compiledQuery.sql, compiledQuery.parameters);
    for (let next = rows.next(); !next.done; next = rows.next()) yield { rows: [next.value as R] };
  }
}

/** Kysely's SQLite dialect with our driver, which also tells when the data last changed. */
export type NodeSqliteDialect = SqliteDialect & { dataGeneration(): number | undefined };

export interface NodeSqliteOptions {
  /** Prepared statements kept (default 300). */
  statementCacheSize?: number;
}

/**
 * Kysely's SqliteDialect over the built-in node:sqlite, so no native addon has to be
 * compiled for one Node version (ARCHITECTURE.md, Runtime), with its own driver: prepared
 * statements reused, and concurrent transactions committed together (see GroupCommitDriver).
 */
export function nodeSqliteDialect(path: string, options: NodeSqliteOptions = {}): NodeSqliteDialect {
  const database = new DatabaseSync(path);
  // WAL lets readers run beside the writer; synchronous=FULL makes an acknowledged commit
  // survive a power loss, not only a process crash.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA busy_timeout = 5000');
  // The WAL file is reused from its start after each checkpoint but never shrinks by itself: one
  // large transaction (a discarded import's deletion, a VACUUM) left it that large for good. Cut
  // back to 16 MB (four default checkpoint intervals) at the first commit after such a reset
  // (docs/decisions/064, amended 2026-11-28).
  database.exec(`PRAGMA journal_size_limit = ${16 * 1024 * 1024}`);
  // A second connection for plain reads; an in-memory database is private to its connection.
  const inMemory = path === ':memory:' || path === '';
  const reader = inMemory ? undefined : new DatabaseSync(path, { readOnly: true });
  reader?.exec('PRAGMA busy_timeout = 5000');
  const driver = new GroupCommitDriver(database, reader, options.statementCacheSize ?? 300);
  // SqliteDialect brings the compiler, adapter and introspector; only the driver is ours.
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return driver;
    }

    dataGeneration(): number | undefined {
      return driver.dataGeneration();
    }
  })({ database: {} as never });
}
