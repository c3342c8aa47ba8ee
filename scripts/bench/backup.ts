/**
 * Backup and restore, timed as the operator runs them (issue 28 §4, docs/decisions/080): the
 * `rewards backup` and `rewards restore` commands in processes of their own (with the flags of
 * `npm run rewards`), wall time from spawn to exit, the steps from their --json; sizes from the
 * manifest. Cases: the demo database on SQLite and, when PostgreSQL's binaries are here, on
 * PostgreSQL (a throwaway server: fsync off, so its restore is faster than a real one's); the
 * big database on SQLite (backup-data.ts: 1,000,000 participants and 10,000,000 ledger entries
 * with their lots, made once into bench/cache/ and reused) and, with --backup-postgres, on
 * PostgreSQL (made in the run: it takes long). The portal is not running: the drill test
 * (modules/backup/restore-drill.test.ts) shows the backup under load.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { rowCount } from '../../apps/server/src/db/row-count.ts';
import { findPostgresBin, startThrowawayPostgres } from '../lib/postgres.ts';
import { ENTRIES_PER_PARTICIPANT, fillPostgresDataSet, makeSqliteDataSet } from './backup-data.ts';
import { CLI, ROOT } from './portal.ts';

const run = promisify(execFile);
const GENERATOR_VERSION = 1;

export interface BackupCase {
  name: string;
  engine: 'sqlite' | 'postgres';
  participants: number;
  ledgerEntries: number;
  /** The live database: the SQLite file (with its WAL), or PostgreSQL's pg_database_size. */
  databaseMb: number;
  /** The backup directory: the copy or dump and the keys. */
  backupMb: number;
  backupSeconds: number;
  backupSteps: Record<string, number>;
  restoreSeconds: number;
  restoreSteps: Record<string, number>;
}

export interface BackupResults {
  cases: BackupCase[];
  /** When the cached big SQLite file was made, and how long that took. */
  bigDataSet?: { path: string; generatedAt: string; seconds?: number };
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const round1 = (n: number) => Math.round(n * 10) / 10;

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

interface CommandJson {
  phases: Record<string, number>;
  manifest: { database: { bytes: number }; keys: Array<{ bytes: number }> };
}

/** `rewards <args> --json` in a process of its own, as `npm run rewards` starts it; wall seconds and its JSON. */
async function rewards(databaseUrl: string, dataDir: string, args: string[]): Promise<{ seconds: number; json: CommandJson }> {
  const started = performance.now();
  const { stdout } = await run(process.execPath, ['--max-semi-space-size=2', '--max-old-space-size=96', CLI, ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { seconds: round1((performance.now() - started) / 1000), json: JSON.parse(stdout) as CommandJson };
}

async function measure(
  name: string,
  engine: BackupCase['engine'],
  counts: { participants: number; ledgerEntries: number; databaseMb: number },
  source: { url: string; dataDir: string },
  target: { url: string; dataDir: string },
  backupDir: string,
  log: (line: string) => void,
): Promise<BackupCase> {
  log(`backup: ${name}: backing up`);
  const backup = await rewards(source.url, source.dataDir, ['backup', '--to', backupDir]);
  const { manifest } = backup.json;
  const backupMb = round1((manifest.database.bytes + manifest.keys.reduce((sum, k) => sum + k.bytes, 0)) / 2 ** 20);
  log(`backup: ${name}: backed up in ${backup.seconds} s (${backupMb} MB; ${JSON.stringify(backup.json.phases)}); restoring`);
  const restore = await rewards(target.url, target.dataDir, ['restore', '--from', backupDir]);
  log(`backup: ${name}: restored in ${restore.seconds} s (${JSON.stringify(restore.json.phases)})`);
  return {
    name,
    engine,
    ...counts,
    backupMb,
    backupSeconds: backup.seconds,
    backupSteps: backup.json.phases,
    restoreSeconds: restore.seconds,
    restoreSteps: restore.json.phases,
  };
}

/** The demo through the operator command, its keys in `dataDir` (as the installation's DATA_DIR). */
async function seedDemo(databaseUrl: string, dataDir: string): Promise<void> {
  await run(process.execPath, [CLI, 'seed-demo'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir } });
}

async function countsOf(url: string): Promise<{ participants: number; ledgerEntries: number }> {
  const db = createDatabase(url.startsWith('file:') ? { dialect: 'sqlite', path: url.slice(5) } : { dialect: 'postgres', url });
  try {
    return { participants: await rowCount(db, 'participants'), ledgerEntries: await rowCount(db, 'ledger_entries') };
  } finally {
    await db.destroy();
  }
}

async function postgresMb(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>('select pg_database_size(current_database()) as size');
    return mb(Number(rows[0]!.size));
  } finally {
    await client.end();
  }
}

async function createPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function runBackup(
  dir: string,
  log: (line: string) => void,
  options: { participants: number; postgresBig: boolean },
): Promise<BackupResults> {
  const cases: BackupCase[] = [];
  const sqliteFile = (name: string) => join(dir, name, 'rewards.db');

  // The demo, SQLite.
  const demo = sqliteFile('demo');
  mkdirSync(join(dir, 'demo'), { recursive: true });
  await seedDemo(`file:${demo}`, join(dir, 'demo'));
  cases.push(
    await measure(
      'demo program',
      'sqlite',
      { ...(await countsOf(`file:${demo}`)), databaseMb: round1((sizeOf(demo) + sizeOf(`${demo}-wal`)) / 2 ** 20) },
      { url: `file:${demo}`, dataDir: join(dir, 'demo') },
      { url: `file:${sqliteFile('demo-restored')}`, dataDir: join(dir, 'demo-restored') },
      join(dir, 'demo-backup'),
      log,
    ),
  );

  const postgres = findPostgresBin() === undefined ? undefined : await startThrowawayPostgres();
  try {
    if (postgres) {
      const source = await createPostgresDatabase(postgres.url, 'backup_demo');
      await seedDemo(source, join(dir, 'pg-demo'));
      cases.push(
        await measure(
          'demo program',
          'postgres',
          { ...(await countsOf(source)), databaseMb: await postgresMb(source) },
          { url: source, dataDir: join(dir, 'pg-demo') },
          { url: await createPostgresDatabase(postgres.url, 'backup_demo_restored'), dataDir: join(dir, 'pg-demo-restored') },
          join(dir, 'pg-demo-backup'),
          log,
        ),
      );
    } else log('backup: no PostgreSQL binaries: the PostgreSQL cases are skipped');

    // The big one, SQLite: made once and kept.
    const cacheDir = join(ROOT, 'bench', 'cache');
    mkdirSync(cacheDir, { recursive: true });
    const big = join(cacheDir, `backup-v${GENERATOR_VERSION}-${options.participants}.db`);
    let bigDataSet: BackupResults['bigDataSet'];
    if (existsSync(big)) {
      bigDataSet = { path: big, generatedAt: statSync(big).mtime.toISOString() };
      log(`backup: the cached data set ${big}`);
    } else {
      log(
        `backup: writing ${options.participants.toLocaleString('en-US')} participants and ${(options.participants * ENTRIES_PER_PARTICIPANT).toLocaleString('en-US')} ledger entries into ${big}`,
      );
      const started = performance.now();
      await makeSqliteDataSet(big, options.participants, log);
      bigDataSet = { path: big, generatedAt: new Date().toISOString(), seconds: round1((performance.now() - started) / 1000) };
    }
    // A start of the portal would migrate it first: so does the bench, so that the backup finds nothing pending.
    const setup = createDatabase({ dialect: 'sqlite', path: big });
    await migrateToLatest(setup);
    await setup.destroy();
    cases.push(
      await measure(
        'big',
        'sqlite',
        {
          participants: options.participants,
          ledgerEntries: options.participants * ENTRIES_PER_PARTICIPANT,
          databaseMb: mb(sizeOf(big) + sizeOf(`${big}-wal`)),
        },
        { url: `file:${big}`, dataDir: join(dir, 'big') },
        { url: `file:${sqliteFile('big-restored')}`, dataDir: join(dir, 'big-restored') },
        join(dir, 'big-backup'),
        log,
      ),
    );

    if (postgres && options.postgresBig) {
      const source = await createPostgresDatabase(postgres.url, 'backup_big');
      const db = createDatabase({ dialect: 'postgres', url: source });
      try {
        await migrateToLatest(db);
        await fillPostgresDataSet(db, options.participants, log);
      } finally {
        await db.destroy();
      }
      cases.push(
        await measure(
          'big',
          'postgres',
          {
            participants: options.participants,
            ledgerEntries: options.participants * ENTRIES_PER_PARTICIPANT,
            databaseMb: await postgresMb(source),
          },
          { url: source, dataDir: join(dir, 'pg-big') },
          { url: await createPostgresDatabase(postgres.url, 'backup_big_restored'), dataDir: join(dir, 'pg-big-restored') },
          join(dir, 'pg-big-backup'),
          log,
        ),
      );
    }
    return { cases, bigDataSet };
  } finally {
    await postgres?.stop();
  }
}
