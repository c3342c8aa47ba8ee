import type { Command } from 'commander';
import { AdminKeyNameTaken, createAdminKey, listKeys, revokeKey } from '../../modules/launch-as/admin-keys.ts';
import { action, CliError, requireClient } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

/** `rewards admins create|list|revoke`: the admin API's keys (docs/decisions/025). A key is shown once. */
export function registerAdmins(program: Command): void {
  const admins = program.command('admins').description("keys of the admin API (a support desk's launch-as tools)");

  const create = admins
    .command('create')
    .description('create a key; it is printed once and stored hashed')
    .requiredOption('--name <name>', 'who or what uses the key, e.g. helpdesk-tool')
    .option('--client <id>', 'the one client the key may act on')
    .option('--all-clients', 'the key may act on every client (the call then names the client)');
  action<{ name: string; client?: string; allClients?: boolean }>(create, async (db, { options, operator }) => {
    const name = options.name.trim();
    if (!/^[\w.@-]{1,100}$/.test(name)) throw new CliError('--name must be 1 to 100 letters, digits or . _ @ -');
    if ((options.client === undefined) === (options.allClients !== true))
      throw new CliError('give exactly one of --client <id> and --all-clients');
    if (options.client !== undefined) await requireClient(db, options.client);
    try {
      const { key, view } = await db
        .transaction()
        .execute((trx) => createAdminKey(trx, { name, clientId: options.client ?? null, createdBy: operator, origin: operatorOrigin }));
      const scope = view.client ?? 'all clients';
      return {
        human: `Created admin key "${view.name}" (id ${view.id}) for ${scope}.\n\n  ${key}\n\nThis is the only time the key is shown: store it now. Use it as "Authorization: Bearer <key>".`,
        json: { ...view, key },
      };
    } catch (error) {
      if (error instanceof AdminKeyNameTaken) throw new CliError(error.message);
      throw error;
    }
  });

  action(admins.command('list').description('the keys (never the keys themselves)'), async (db) => {
    const keys = await listKeys(db);
    if (keys.length === 0) return { human: 'No admin keys.', json: keys };
    const human = keys
      .map((k) =>
        [
          k.name.padEnd(20),
          k.id,
          (k.client ?? 'all clients').padEnd(12),
          `created ${k.createdAt}`,
          k.revokedAt ? `REVOKED ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`,
        ].join('  '),
      )
      .join('\n');
    return { human, json: keys };
  });

  const revoke = admins.command('revoke').description('revoke a key at once').argument('<name-or-id>', "the key's name or id");
  action(revoke, async (db, { args, operator }) => {
    const which = args[0] ?? '';
    const result = await db.transaction().execute((trx) => revokeKey(trx, which, operator, operatorOrigin));
    if (!result) throw new CliError(`No admin key named or with id "${which}"`);
    const human = result.already
      ? `Admin key "${result.view.name}" was already revoked (${result.view.revokedAt}).`
      : `Revoked admin key "${result.view.name}".`;
    return { human, json: result.view };
  });
}
