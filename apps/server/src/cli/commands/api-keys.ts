import type { Command } from 'commander';
import { API_SCOPES, DEFAULT_BURST, DEFAULT_RATE_PER_SECOND, MAX_BURST, MAX_RATE_PER_SECOND, MIN_RATE_PER_SECOND } from '@rewards/contract';
import type { ApiScope } from '../../modules/api-keys/service.ts';
import { createApiKey, listClientApiKeys, revokeClientApiKey } from '../../modules/api-keys/service.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

const KNOWN: ReadonlySet<string> = new Set(API_SCOPES);

/** `--scopes points:write,participants:read`: each known, at least one. */
function scopesFlag(value: string | undefined): ApiScope[] {
  const named = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (named.length === 0) throw new CliError(`--scopes names at least one of ${API_SCOPES.join(', ')}`);
  const unknown = named.filter((s) => !KNOWN.has(s));
  if (unknown.length > 0) throw new CliError(`--scopes: unknown ${unknown.join(', ')} (the scopes are ${API_SCOPES.join(', ')})`);
  return named as ApiScope[];
}

function rateFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < MIN_RATE_PER_SECOND || rate > MAX_RATE_PER_SECOND)
    throw new CliError(`--rate must be a number of calls per second from ${MIN_RATE_PER_SECOND} to ${MAX_RATE_PER_SECOND}`);
  return rate;
}

function reasonFlag(value: string | undefined): string {
  const reason = value?.trim() ?? '';
  if (reason.length < 3 || reason.length > 500) throw new CliError('--reason <text> is required (3 to 500 characters), for the audit log');
  return reason;
}

/** `rewards api-keys create|list|revoke`: a client's keys to the program API (docs/decisions/083), through the console's service. */
export function registerApiKeys(program: Command): void {
  const keys = program.command('api-keys').description("a client's keys to the program API (/api/program/v1)");

  const create = keys
    .command('create')
    .description('make a key; it is printed once and stored hashed')
    .requiredOption('--client <id>', 'the client the key acts for (it reaches no other)')
    .requiredOption('--name <name>', 'what uses the key, e.g. "CRM sync" (once per client among keys not revoked)')
    .requiredOption('--scopes <list>', `comma-separated: ${API_SCOPES.join(', ')}`)
    .option('--rate <per-second>', `sustained calls per second (default ${DEFAULT_RATE_PER_SECOND})`)
    .option('--burst <n>', `calls at once (default ${DEFAULT_BURST})`)
    .option('--reason <text>', 'why, for the audit log (required)');
  action<{ client: string; name: string; scopes: string; rate?: string; burst?: string; reason?: string }>(
    create,
    async (db, { options, operator }) => {
      const reason = reasonFlag(options.reason);
      const scopes = scopesFlag(options.scopes);
      const ratePerSecond = rateFlag(options.rate);
      const burst = options.burst === undefined ? undefined : wholeNumber('--burst', options.burst, 1, MAX_BURST);
      await requireClient(db, options.client);
      const { key, view } = await createApiKey(db, {
        clientId: options.client,
        name: options.name,
        scopes,
        ...(ratePerSecond === undefined ? {} : { ratePerSecond }),
        ...(burst === undefined ? {} : { burst }),
        createdBy: operator,
        actorKind: 'operator',
        reason,
        origin: operatorOrigin,
      });
      return {
        human: [
          `Created API key "${view.name}" (id ${view.id}) for ${view.client}: ${view.scopes.join(', ')}; ${view.ratePerSecond}/s, burst ${view.burst}.`,
          '',
          `  ${key}`,
          '',
          'This is the only time the key is shown: store it now (a secret store, not a repository).',
          'Use it as "Authorization: Bearer <key>".',
        ].join('\n'),
        json: { ...view, key },
      };
    },
  );

  const list = keys
    .command('list')
    .description("the client's keys, newest first (never the keys themselves)")
    .requiredOption('--client <id>', 'the client');
  action<{ client: string }>(list, async (db, { options }) => {
    await requireClient(db, options.client);
    const all = await listClientApiKeys(db, options.client);
    if (all.length === 0) return { human: `No API keys in ${options.client}.`, json: all };
    const human = all
      .map((k) =>
        [
          k.name.padEnd(20),
          k.id,
          `${k.prefix}_…`,
          k.scopes.join(','),
          `${k.ratePerSecond}/s burst ${k.burst}`,
          `by ${k.createdBy}`,
          `created ${k.createdAt}`,
          `last used ${k.lastUsedAt ?? 'never'}`,
          ...(k.revokedAt ? [`REVOKED ${k.revokedAt} by ${k.revokedBy ?? '?'}`] : []),
        ].join('  '),
      )
      .join('\n');
    return { human, json: all };
  });

  const revoke = keys
    .command('revoke')
    .description('revoke a key at once: its next call is refused')
    .requiredOption('--client <id>', "the key's client")
    .requiredOption('--key <id>', "the key's id (12 hex characters, as list shows)")
    .option('--reason <text>', 'why, for the audit log (required)');
  action<{ client: string; key: string; reason?: string }>(revoke, async (db, { options, operator }) => {
    const reason = reasonFlag(options.reason);
    await requireClient(db, options.client);
    const result = await revokeClientApiKey(db, {
      clientId: options.client,
      keyId: options.key.trim(),
      revokedBy: operator,
      actorKind: 'operator',
      reason,
      origin: operatorOrigin,
    });
    const human = result.already
      ? `API key "${result.view.name}" (${result.view.id}) was already revoked (${result.view.revokedAt}).`
      : `Revoked API key "${result.view.name}" (${result.view.id}).`;
    return { human, json: result.view };
  });
}
