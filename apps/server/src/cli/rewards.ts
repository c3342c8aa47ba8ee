#!/usr/bin/env -S node --max-semi-space-size=2 --max-old-space-size=96
/**
 * `npm run rewards -- <command>` (also the `rewards` bin of the server package): the operator's
 * tool (docs/decisions/020). Every command has --help, prints a summary or --json, and exits
 * 2 with one line on bad input (1 on anything else), having changed nothing.
 *
 * The heap flags (here and in package.json's scripts) keep a million-line import near 170 MB
 * resident instead of 360 MB: V8 otherwise grows its heap far past the ~40 MB that is live
 * (docs/decisions/022).
 */
import { Command, CommanderError } from 'commander';
import { ApiError } from '../http/api-error.ts';
import { DatabaseNewerThanCodeError } from '../db/migrate.ts';
import { CliError } from './cli-context.ts';
import { registerAdmins } from './commands/admins.ts';
import { registerApiKeys } from './commands/api-keys.ts';
import { registerAudit } from './commands/audit.ts';
import { registerClients } from './commands/clients.ts';
import { registerClientsSso } from './commands/clients-sso.ts';
import { registerCodes } from './commands/codes.ts';
import { registerEventsImport } from './commands/events-import.ts';
import { registerEventsRelease } from './commands/events-release.ts';
import { registerContact } from './commands/contact.ts';
import { registerBackup } from './commands/backup.ts';
import { registerDatabase } from './commands/database.ts';
import { registerDemo } from './commands/demo.ts';
import { registerLaunchAs } from './commands/launch-as.ts';
import { registerMigrate } from './commands/migrate.ts';
import { registerOutbox } from './commands/outbox.ts';
import { registerParticipants } from './commands/participants.ts';
import { registerPoints } from './commands/points.ts';
import { registerRules } from './commands/rules.ts';
import { registerEventTypes } from './commands/events-types.ts';
import { registerSessions } from './commands/sessions.ts';
import { registerStaff } from './commands/staff.ts';
import { registerStatements } from './commands/statements.ts';
import { registerWebhooks } from './commands/webhooks.ts';

export function buildProgram(): Command {
  const program = new Command('rewards')
    .description('Operate the rewards portal. The database is DATABASE_URL (default file:./data/rewards.db).')
    .option('--json', 'print JSON instead of a summary')
    .option('--operator <name>', 'who you are, for the audit log (default: your OS user)')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  // Subcommands inherit the error handling; their own --help lists their options.
  program.configureOutput({ outputError: (text, write) => write(text) });
  registerMigrate(program);
  registerDatabase(program);
  registerBackup(program);
  registerDemo(program);
  registerClients(program);
  registerClientsSso(program);
  registerParticipants(program);
  registerPoints(program);
  registerRules(program);
  registerEventsImport(program);
  registerEventsRelease(program);
  registerEventTypes(program);
  registerCodes(program);
  registerStatements(program);
  registerSessions(program);
  registerOutbox(program);
  registerContact(program);
  registerAudit(program);
  registerLaunchAs(program);
  registerAdmins(program);
  registerApiKeys(program);
  registerWebhooks(program);
  registerStaff(program);
  for (const command of allCommands(program)) command.exitOverride();
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0; commander has printed them.
      return error.exitCode === 0 ? 0 : 2;
    }
    // A service's refusal (a rule the input breaks) is as much the operator's to fix as a bad flag.
    // So is a database a newer version migrated: the message names both versions' migrations.
    if (error instanceof CliError || error instanceof ApiError || error instanceof DatabaseNewerThanCodeError) {
      process.stderr.write(`rewards: ${error.message}\n`);
      return 2;
    }
    // Not the operator's fault: a short reason, no stack, no SQL.
    process.stderr.write(`rewards: failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
