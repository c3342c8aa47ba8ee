import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { createDatabase, type Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { usePasswordHashCost } from '../modules/auth/password.ts';
import { unknownClient } from '../modules/clients/client-change.ts';
import { readClient } from '../modules/clients/service.ts';
import type { Client } from '../modules/clients/tables.ts';

/** A reason the operator can act on (bad flag, missing file, unknown client): one line, exit 2, nothing changed. */
export class CliError extends Error {}

/** What a command hands back: a summary for people, and the same facts for `--json`. */
export interface CommandResult {
  human: string;
  json: unknown;
}

/** The options every command accepts (defined on the program, read with optsWithGlobals). */
export interface GlobalOptions {
  json?: boolean;
  operator?: string;
}

/** The database of DATABASE_URL, migrated, closed when the command is done (also when it fails). */
export async function withDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    // The whole message: it names each variable and what is wrong with it.
    throw new CliError((error as Error).message);
  }
  usePasswordHashCost(config.passwordHashCost);
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** Who acts, for the audit log: `--operator`, else the OS user. */
export function operatorName(options: GlobalOptions): string {
  if (options.operator) return options.operator;
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/**
 * The action of a command: opens the database, runs, prints the human summary or JSON. Errors
 * go to the program's handler in rewards.ts, which prints one line and sets the exit code.
 * `args` are the command's positionals; `options` its own options.
 */
export function action<O>(
  command: Command,
  run: (db: Db, context: { args: string[]; options: O; global: GlobalOptions; operator: string }) => Promise<CommandResult>,
): Command {
  return command.action(async () => {
    const global = command.optsWithGlobals<GlobalOptions>();
    const context = { args: command.args, options: command.opts<O & object>() as O, global, operator: operatorName(global) };
    const result = await withDatabase((db) => run(db, context));
    print(result, global.json === true);
  });
}

export function print(result: CommandResult, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.human}\n`);
}

/** The client an operator names, or a refusal naming the clients there are. */
export async function requireClient(db: Db, clientId: string | undefined): Promise<Client> {
  if (!clientId) throw new CliError('--client <id> is required');
  const client = await readClient(db, clientId);
  if (!client) throw await unknownClient(db, clientId);
  return client;
}

/**
 * Commander's collector for an option given several times (`--locale fr-FR --locale ar`): the
 * values in the order given. Pass no default, or commander prints "(default: [])" in --help.
 */
export function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A whole number from a flag, within bounds, or a CliError naming the flag. */
export function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || n < min || n > max)
    throw new CliError(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}
