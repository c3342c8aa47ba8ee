import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { demoSeeded, seedDemo } from '../db/seed/demo.ts';
import { listOutbox } from '../modules/mail/listing.ts';
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
  outbox [--limit N] [--client ID] [--json]
                                            the latest mails, newest first (default 20, all clients);
                                            --json prints [{id, to, subject, template, status,
                                            createdAt, text, html, links}]

The database is DATABASE_URL (default file:./data/rewards.db).`;

async function revokeSessions(db: Db, clientId: string, username: string | undefined): Promise<string> {
  if (!username) throw new UsageError('sessions revoke needs --username');
  const participant = await findParticipantByUsername(db, clientId, username);
  if (!participant) throw new UsageError(`No participant "${username}" in client "${clientId}"`);
  const count = await deleteParticipantSessions(db, clientId, participant.id);
  return `Ended ${count} session(s) of ${participant.username}.`;
}

class UsageError extends Error {}

async function showOutbox(db: Db, options: { limit?: string; client?: string; json?: boolean }): Promise<string> {
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
  const mails = await listOutbox(db, { limit, clientId: options.client });
  if (options.json) return JSON.stringify(mails, null, 2);
  if (mails.length === 0) return 'The outbox is empty.';
  return mails
    .map((m) => [m.createdAt, m.status.padEnd(7), m.template.padEnd(15), m.to, JSON.stringify(m.subject), m.links[0] ?? ''].join('  ').trimEnd())
    .join('\n');
}

async function run(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      client: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
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
        if (sub === 'revoke') return await revokeSessions(db, values.client ?? 'acme', values.username);
        if (sub === 'purge') return `Deleted ${await purgeExpiredSessions(db)} expired session(s).`;
        throw new UsageError(`Unknown sessions command "${sub ?? ''}"`);
      case 'outbox':
        return await showOutbox(db, values);
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
