import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { demoSeeded, seedDemo } from '../db/seed/demo.ts';
import { findParticipantByUsername } from '../modules/participants/store.ts';
import { deleteParticipantSessions } from '../modules/sessions/store.ts';
import { purgeExpiredSessions } from '../modules/sessions/service.ts';

const USAGE = `Usage: npm run rewards -- <command> [options]

Commands:
  migrate                                   run database migrations
  seed-demo                                 add the demo program (Acme Rewards) if it is not there
  sessions revoke --username NAME [--client ID]
                                            sign a participant out everywhere
  sessions purge                            delete expired sessions

The database is DATABASE_URL (default file:./data/rewards.db).`;

async function revokeSessions(db: Db, clientId: string, username: string | undefined): Promise<string> {
  if (!username) throw new UsageError('sessions revoke needs --username');
  const participant = await findParticipantByUsername(db, clientId, username);
  if (!participant) throw new UsageError(`No participant "${username}" in client "${clientId}"`);
  const count = await deleteParticipantSessions(db, clientId, participant.id);
  return `Ended ${count} session(s) of ${participant.username}.`;
}

class UsageError extends Error {}

async function run(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { username: { type: 'string' }, client: { type: 'string', default: 'acme' }, help: { type: 'boolean' } },
  });
  const [command, sub] = positionals;
  if (values.help || !command) return USAGE;

  const db = createDatabase(loadConfig().database);
  try {
    await migrateToLatest(db);
    switch (command) {
      case 'migrate':
        return 'Migrations are up to date.';
      case 'seed-demo':
        if (await demoSeeded(db)) return 'The demo program is already there.';
        await seedDemo(db);
        return 'Seeded the demo program "Acme Rewards" (users demo, spent, newbie, pending, inactive, merch).';
      case 'sessions':
        if (sub === 'revoke') return await revokeSessions(db, values.client, values.username);
        if (sub === 'purge') return `Deleted ${await purgeExpiredSessions(db)} expired session(s).`;
        throw new UsageError(`Unknown sessions command "${sub ?? ''}"`);
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).then(
  (message) => console.log(message),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
