import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

/** node:sqlite binds no booleans or undefined; Kysely may hand us either. */
function toSqliteValue(value: unknown): SqliteValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SqliteValue;
}

function adaptStatement(statement: StatementSync): SqliteStatement {
  return {
    // A statement that yields columns is a reader (SELECT, or any statement with RETURNING).
    get reader() {
      return statement.columns().length > 0;
    },
    all: (parameters) => statement.all(...parameters.map(toSqliteValue)),
    run: (parameters) => statement.run(...parameters.map(toSqliteValue)),
    iterate: (parameters) => statement.iterate(...parameters.map(toSqliteValue)),
  };
}

/**
 * Kysely's SqliteDialect over the built-in node:sqlite, so no native addon has to be
 * compiled for one Node version (ARCHITECTURE.md, Runtime).
 */
export function nodeSqliteDialect(path: string): SqliteDialect {
  const database = new DatabaseSync(path);
  // WAL lets readers run beside the writer; synchronous=FULL makes an acknowledged commit
  // survive a power loss, not only a process crash.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA busy_timeout = 5000');
  const adapted: SqliteDatabase = {
    close: () => database.close(),
    prepare: (sql) => adaptStatement(database.prepare(sql)),
  };
  return new SqliteDialect({ database: adapted });
}
