import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { createDatabase } from '../../db/database.ts';
import { KNOWN_MIGRATIONS, migrateToLatest, migrationStatus, type MigrationStatus } from '../../db/migrate.ts';
import { print, type CommandResult, type GlobalOptions } from '../cli-context.ts';

/**
 * `rewards migrate` applies what is pending (and refuses a database a newer version migrated);
 * `--status` only tells: applied, pending, and whether the code is older than the database
 * (docs/decisions/080). Its own action: the others migrate before they run, this one reports it.
 */
export function registerMigrate(program: Command): void {
  const migrate = program
    .command('migrate')
    .description('run database migrations; --status: what is applied and pending, changing nothing')
    .option('--status', 'applied, pending, and whether the database was migrated by a newer version');
  migrate.action(async () => {
    const global = migrate.optsWithGlobals<GlobalOptions>();
    const status = migrate.opts<{ status?: boolean }>().status === true;
    print(status ? await statusReport() : await apply(), global.json === true);
  });
}

async function apply(): Promise<CommandResult> {
  const db = createDatabase(loadConfig().database);
  try {
    const applied = await migrateToLatest(db);
    return {
      human: applied.length === 0 ? 'Migrations are up to date.' : `Applied ${applied.length} migration(s): ${applied.join(', ')}.`,
      json: { migrated: true, applied },
    };
  } finally {
    await db.destroy();
  }
}

async function statusReport(): Promise<CommandResult> {
  const { database } = loadConfig();
  let status: MigrationStatus;
  // Opening a SQLite file that is not there would make one: a status changes nothing.
  if (database.dialect === 'sqlite' && database.path !== ':memory:' && !existsSync(database.path)) {
    status = { applied: [], pending: [...KNOWN_MIGRATIONS], unknown: [], newestKnown: KNOWN_MIGRATIONS.at(-1)! };
  } else {
    const db = createDatabase(database);
    try {
      status = await migrationStatus(db);
    } finally {
      await db.destroy();
    }
  }
  const codeIsOlder = status.unknown.length > 0;
  const newestApplied = status.applied.at(-1);
  const lines = [
    `Database: ${database.dialect === 'sqlite' ? `SQLite ${database.path}` : `PostgreSQL ${new URL(database.url).pathname.slice(1)}`}`,
    `Applied: ${status.applied.length}${newestApplied ? `, the newest ${newestApplied.name} (${newestApplied.at})` : ''}`,
    `Pending: ${status.pending.length === 0 ? 'none' : `${status.pending.length}: ${status.pending.join(', ')} (rewards migrate, or a start of the portal, applies them)`}`,
    codeIsOlder
      ? `The code is OLDER than the database: it has ${status.unknown.map((m) => m.name).join(', ')}, which this code does not know ` +
        `(the newest this code knows is ${status.newestKnown}). This version refuses to start or run commands on it.`
      : `The code is not older than the database (the newest migration this code knows: ${status.newestKnown}).`,
  ];
  return { human: lines.join('\n'), json: { ...status, codeIsOlder } };
}
