/**
 * Which databases can tell cheaply whether anything was committed since a value was read from
 * them (docs/decisions/027): SQLite files, through `PRAGMA data_version` on the driver's
 * read-only connection. PostgreSQL and in-memory SQLite cannot, and their reads are never
 * cached by generation.
 */
const sources = new WeakMap<object, () => number | undefined>();

/** Called by createDatabase for the databases that have a generation. */
export function registerDataGeneration(db: object, source: () => number | undefined): void {
  sources.set(db, source);
}

/**
 * A number that changes whenever any connection, in this process or another, commits to this
 * database; undefined when the database cannot tell (PostgreSQL, `:memory:`, a transaction).
 * Equal values read at two moments mean nothing was committed in between (another process's
 * commit may show up to one event-loop turn late).
 */
export function dataGeneration(db: object): number | undefined {
  return sources.get(db)?.();
}
