/**
 * Backup and restore of an installation (issue 28 §4, docs/decisions/080): the database — an
 * online page copy on SQLite, pg_dump on PostgreSQL — checked before it counts as done, and the
 * keys of DATA_DIR a restore needs; a restore into a new database that ends every session.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { DatabaseConfig } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { KNOWN_MIGRATIONS, NEWEST_KNOWN_MIGRATION, migrateToLatest } from '../../db/migrate.ts';
import { recordAudit } from '../audit/service.ts';
import { endAllSessions } from '../sessions/service.ts';
import { endAllStaffSessions } from '../staff/sessions.ts';
import { BackupRefused } from './errors.ts';
import { configuredKeyVariable, copyKeys, keysLeftOut, planKeys, writeKeys, type KeySource } from './keys.ts';
import { describeFile, readCheckedManifest, writeManifest, BACKUP_FORMAT, type BackupManifest } from './manifest.ts';
import { migrationsInDump, pgDump, pgDumpEntries, pgRestore } from './pg-tools.ts';
import { copySqliteOnline, finishSqliteCopy, settleSqliteFile, sqliteFileInUse } from './sqlite-file.ts';
import { rowCount } from '../../db/row-count.ts';
import { pointsOwed } from '../participants/service.ts';
import { dropPostgresTables, postgresTables } from './store.ts';

export interface Contents {
  clients: number;
  participants: number;
  ledgerEntries: number;
  /** The sum of the balances: what the restored ledger owes. */
  points: number;
  staff: number;
}

/**
 * What a restored database holds, for the operator's summary: row counts of any table (the
 * backup's own business, db/row-count.ts), and what the ledger owes as the participants module
 * sums it.
 */
async function contentsOf(db: Db): Promise<Contents> {
  const count = (table: 'clients' | 'participants' | 'ledger_entries' | 'staff') => rowCount(db, table);
  return {
    clients: await count('clients'),
    participants: await count('participants'),
    ledgerEntries: await count('ledger_entries'),
    points: await pointsOwed(db),
    staff: await count('staff'),
  };
}

export { BackupRefused } from './errors.ts';
export type { BackupManifest } from './manifest.ts';

/** What a backup or a restore reads of the configuration: the database and where the keys live. */
export interface Installation {
  database: DatabaseConfig;
  catalog: KeySource;
}

const DATABASE_FILE = { sqlite: 'database.sqlite', postgres: 'database.dump' } as const;

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Seconds per step, for the operator and the bench: where a big backup's time goes. */
export type Phases = Record<string, number>;

function stopwatch(): { phases: Phases; lap(name: string): void } {
  const phases: Phases = {};
  let last = performance.now();
  return {
    phases,
    lap(name) {
      const now = performance.now();
      phases[name] = Math.round(now - last) / 1000;
      last = now;
    },
  };
}

export interface BackupResult {
  dir: string;
  manifest: BackupManifest;
  seconds: number;
  phases: Phases;
  /** Keys left out and where they are. */
  notes: string[];
}

/**
 * A backup directory at `to` (refused if something is there): built under a temporary name
 * beside it and renamed when complete, so a backup that failed half way never looks like one.
 */
export async function backupInstallation(
  installation: Installation,
  options: { to: string; withKeys: boolean; progress?: (done: number, total: number) => void },
): Promise<BackupResult> {
  const started = performance.now();
  const watch = stopwatch();
  const dir = resolve(options.to);
  try {
    if ((await readdir(dir)).length > 0) throw new BackupRefused(`${dir} is not empty: a backup goes into a new directory`);
  } catch (error) {
    if (error instanceof BackupRefused) throw error;
    if (isCode(error, 'ENOTDIR')) throw new BackupRefused(`${dir} is a file: a backup goes into a new directory`);
    if (!isCode(error, 'ENOENT')) throw error;
  }
  await mkdir(dirname(dir), { recursive: true });
  const partial = `${dir}.partial-${randomBytes(4).toString('hex')}`;
  await mkdir(partial, { mode: 0o700 });
  try {
    const { database } = installation;
    const file = DATABASE_FILE[database.dialect];
    let snapshotAt: Date;
    let check: string;
    let migrations: string[];
    if (database.dialect === 'sqlite') {
      if (database.path === ':memory:' || database.path === '') throw new BackupRefused('an in-memory database has nothing to back up');
      ({ snapshotAt } = await copySqliteOnline(database.path, join(partial, file), options.progress));
      watch.lap('copy');
      ({ check, migrations } = finishSqliteCopy(join(partial, file)));
      watch.lap('integrity_check');
    } else {
      // pg_dump takes its snapshot as it starts: every commit acknowledged before this moment is in.
      snapshotAt = new Date();
      await pgDump(database.url, join(partial, file));
      watch.lap('pg_dump');
      check = `pg_restore --list: ${await pgDumpEntries(join(partial, file))} entries`;
      migrations = await migrationsInDump(join(partial, file));
      watch.lap('pg_restore --list');
    }
    const keys = options.withKeys ? await copyKeys(partial, installation.catalog) : { keys: [], keysElsewhere: [] };
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      engine: database.dialect,
      snapshotAt: snapshotAt.toISOString(),
      finishedAt: new Date().toISOString(),
      schema: { lastMigration: migrations.at(-1) ?? null, migrations },
      database: { ...(await describeFile(partial, file)), check },
      ...keys,
    };
    await writeManifest(partial, manifest);
    await rename(partial, dir);
    watch.lap('keys and sha256');
    const notes = options.withKeys ? manifest.keysElsewhere : keysLeftOut(installation.catalog);
    return { dir, manifest, seconds: (performance.now() - started) / 1000, phases: watch.phases, notes };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The database restored into: a file, or the PostgreSQL database's name. */
  target: string;
  /** Migrations this code applied on top of the backup's (a backup of an earlier version). */
  migrated: string[];
  sessionsEnded: { participants: number; staff: number };
  keys: { written: string[]; same: string[]; keptAside: string[] };
  contents: Contents;
  seconds: number;
  phases: Phases;
  notes: string[];
}

/**
 * Restores a backup into the configured database and DATA_DIR. Everything that could refuse is
 * checked before anything changes: the manifest and every file's sha256, the engine, a backup of
 * a newer version, a live database (an existing SQLite file, a PostgreSQL database with tables)
 * and different keys already in DATA_DIR — the last two give way only to `force`.
 */
export async function restoreInstallation(
  installation: Installation,
  options: { from: string; force: boolean; actor: { name: string; origin: string } },
): Promise<RestoreResult> {
  const started = performance.now();
  const watch = stopwatch();
  const from = resolve(options.from);
  const manifest = await readCheckedManifest(from);
  watch.lap('sha256 check');
  const { database } = installation;
  if (manifest.engine !== database.dialect)
    throw new BackupRefused(
      `this is a backup of a ${manifest.engine} database and DATABASE_URL is ${database.dialect}: restore into the same engine`,
    );
  const unknown = manifest.schema.migrations.filter((name) => !KNOWN_MIGRATIONS.includes(name));
  if (unknown.length > 0)
    throw new BackupRefused(
      `this backup was made by a newer version: it has migration ${unknown.join(', ')}, which this code does not know ` +
        `(the newest this code knows is ${NEWEST_KNOWN_MIGRATION}); restore it with that version`,
    );
  const notes: string[] = [];
  if (manifest.keys.length === 0)
    notes.push(
      'this backup holds no keys: staff second factors and single-sign-on secrets open only with the original sso-secret-key in DATA_DIR',
    );
  for (const key of manifest.keys) {
    const variable = configuredKeyVariable(key.name, installation.catalog);
    if (variable !== undefined)
      notes.push(`${variable} is set: the portal uses it, not the restored ${key.name} file (they must be the same key)`);
  }
  const dumpOrFile = join(from, manifest.database.path);
  const dataDir = installation.catalog.dataDir;

  const work = async (db: Db) => {
    const migrated = await migrateToLatest(db);
    watch.lap('migrations');
    // A restored session table would let the cookies and session ids of before the backup back in.
    const participants = await endAllSessions(db);
    const staff = await endAllStaffSessions(db);
    await recordAudit(db, {
      clientId: null,
      actor: options.actor.name,
      actorKind: 'operator',
      action: 'database.restore',
      subject: from,
      details: {
        snapshotAt: manifest.snapshotAt,
        lastMigration: manifest.schema.lastMigration,
        migrated,
        sessionsEnded: { participants, staff },
      },
      origin: options.actor.origin,
    });
    watch.lap('sessions ended');
    const contents = await contentsOf(db);
    watch.lap('counts');
    return { migrated, sessionsEnded: { participants, staff }, contents };
  };

  if (database.dialect === 'sqlite') {
    const target = resolve(database.path);
    if (database.path === ':memory:' || database.path === '') throw new BackupRefused('cannot restore into an in-memory database');
    if (sqliteFileInUse(target) && !options.force)
      throw new BackupRefused(
        `there is a database at ${target} already: restore into a new file, or add --force to replace it (stop every portal process on it first)`,
      );
    const plan = await planKeys(from, manifest, dataDir, options.force);
    const keptAside = await writeKeys(plan, dataDir, new Date());
    // Restored, migrated and cleared under a temporary name, then renamed into place: the target is the old file or the new one, never half.
    await mkdir(dirname(target), { recursive: true });
    const restoring = `${target}.restoring-${randomBytes(4).toString('hex')}`;
    await copyFile(dumpOrFile, restoring);
    watch.lap('copy');
    let done: Awaited<ReturnType<typeof work>>;
    try {
      const db = createDatabase({ dialect: 'sqlite', path: restoring });
      try {
        done = await work(db);
      } finally {
        await db.destroy();
      }
      settleSqliteFile(restoring);
      // The replaced database's WAL must not outlive it: SQLite would replay it into the new file.
      for (const suffix of ['-wal', '-shm']) await rm(`${target}${suffix}`, { force: true });
      await rename(restoring, target);
      watch.lap('into place');
    } catch (error) {
      for (const suffix of ['', '-wal', '-shm']) await rm(`${restoring}${suffix}`, { force: true });
      throw error;
    }
    return {
      manifest,
      target,
      ...done,
      keys: { written: plan.write.map((k) => k.name), same: plan.same, keptAside },
      seconds: (performance.now() - started) / 1000,
      phases: watch.phases,
      notes,
    };
  }

  const db = createDatabase(database);
  try {
    let tables: string[];
    try {
      tables = await postgresTables(db);
    } catch (error) {
      if (isCode(error, '3D000'))
        throw new BackupRefused(`the database of DATABASE_URL does not exist: create it first (createdb), empty, then restore into it`);
      throw error;
    }
    if (tables.length > 0 && !options.force)
      throw new BackupRefused(
        `the database of DATABASE_URL has ${tables.length} tables: restore into a new, empty database, or add --force to drop them (stop every portal process on it first)`,
      );
    const plan = await planKeys(from, manifest, dataDir, options.force);
    const keptAside = await writeKeys(plan, dataDir, new Date());
    if (tables.length > 0) await dropPostgresTables(db, tables);
    await pgRestore(database.url, dumpOrFile);
    watch.lap('pg_restore');
    const done = await work(db);
    return {
      manifest,
      target: new URL(database.url).pathname.slice(1),
      ...done,
      keys: { written: plan.write.map((k) => k.name), same: plan.same, keptAside },
      seconds: (performance.now() - started) / 1000,
      phases: watch.phases,
      notes,
    };
  } finally {
    await db.destroy();
  }
}
