import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { backupInstallation, BackupRefused, restoreInstallation } from '../../modules/backup/service.ts';
import { CliError, operatorName, print, type CommandResult, type GlobalOptions } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const seconds = (s: number) => `${s.toFixed(1)} s`;
/** "12.3 s (copy 5.1 s, integrity_check 6 s, …)": where the time went. */
const timed = (total: number, phases: Record<string, number>) =>
  `${seconds(total)} (${Object.entries(phases)
    .map(([name, s]) => `${name} ${seconds(s)}`)
    .join(', ')})`;

/**
 * These two open no database through withDatabase: a backup changes nothing, not even by
 * migrating (it copies what is there, whatever version made it), and a restore must find its
 * target untouched (docs/decisions/080).
 */
function run(command: Command, work: (global: GlobalOptions) => Promise<CommandResult>): Command {
  return command.action(async () => {
    const global = command.optsWithGlobals<GlobalOptions>();
    try {
      print(await work(global), global.json === true);
    } catch (error) {
      throw error instanceof BackupRefused ? new CliError(error.message) : error;
    }
  });
}

/** Progress on the terminal only (stderr: stdout is the summary or JSON). */
function progressLine(): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let shown = -1;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (percent === shown) return;
    shown = percent;
    process.stderr.write(`\rbackup: ${percent} %${percent === 100 ? '\n' : ''}`);
  };
}

export function registerBackup(program: Command): void {
  const backup = program
    .command('backup')
    .description('back up the database of DATABASE_URL and the keys of DATA_DIR into a new directory, while the portal runs')
    .requiredOption('--to <dir>', 'a new (or empty) directory for the backup')
    .option('--no-keys', 'leave the keys out (kept elsewhere): such a backup cannot restore staff second factors on its own');
  run(backup, async () => {
    const options = backup.opts<{ to: string; keys: boolean }>();
    const config = loadConfig();
    const done = await backupInstallation(config, { to: options.to, withKeys: options.keys, progress: progressLine() });
    const { manifest } = done;
    const where = config.database.dialect === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL';
    const lines = [
      `Backed up ${where} into ${done.dir} in ${timed(done.seconds, done.phases)}; snapshot ${manifest.snapshotAt}.`,
      `  ${manifest.database.path}  ${mb(manifest.database.bytes)}  ${manifest.database.check}`,
      ...manifest.keys.map((k) => `  ${k.path}  (${k.what})`),
      `  schema: ${manifest.schema.migrations.length} migrations, the newest ${manifest.schema.lastMigration ?? 'none'}`,
      ...done.notes.map((note) => `Note: ${note}.`),
    ];
    if (manifest.keys.length > 0) lines.push('The keys open the staff second factors: keep this backup as safe as the keys themselves.');
    return { human: lines.join('\n'), json: { dir: done.dir, seconds: done.seconds, phases: done.phases, notes: done.notes, manifest } };
  });

  const restore = program
    .command('restore')
    .description('restore a backup into the (new) database of DATABASE_URL and its keys into DATA_DIR; every session ends')
    .requiredOption('--from <dir>', 'a directory made by rewards backup')
    .option('--force', 'replace a live database (an existing SQLite file, a PostgreSQL database with tables) and different keys');
  run(restore, async (global) => {
    const options = restore.opts<{ from: string; force?: boolean }>();
    const config = loadConfig();
    const done = await restoreInstallation(config, {
      from: options.from,
      force: options.force === true,
      actor: { name: operatorName(global), origin: operatorOrigin },
    });
    const { manifest, contents, keys } = done;
    const lines = [
      `Restored the backup of ${manifest.snapshotAt} (${manifest.engine}, newest migration ${manifest.schema.lastMigration ?? 'none'}) into ${done.target} in ${timed(done.seconds, done.phases)}.`,
      `  ${contents.clients} clients, ${contents.participants} participants, ${contents.ledgerEntries} ledger entries (${contents.points} points in the balances), ${contents.staff} staff`,
      `  sessions ended: ${done.sessionsEnded.participants} of participants, ${done.sessionsEnded.staff} of staff (everyone signs in again)`,
      `  migrated: ${done.migrated.length === 0 ? 'nothing to do' : done.migrated.join(', ')}`,
      `  keys into ${config.catalog.dataDir}: ${
        [
          keys.written.length > 0 ? `written ${keys.written.join(', ')}` : '',
          keys.same.length > 0 ? `already there ${keys.same.join(', ')}` : '',
          keys.keptAside.length > 0 ? `replaced ones kept as ${keys.keptAside.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ') || 'none in the backup'
      }`,
      ...done.notes.map((note) => `Note: ${note}.`),
      `Start the portal with this DATABASE_URL and DATA_DIR=${config.catalog.dataDir}.`,
    ];
    return { human: lines.join('\n'), json: done };
  });
}
