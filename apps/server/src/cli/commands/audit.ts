import { hostname } from 'node:os';
import type { Command } from 'commander';
import { listAudit } from '../../modules/audit/service.ts';
import type { Actor } from '../../modules/participants/operator-service.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';

/** Where an operator's command ran, for the audit log's "from where". */
export const operatorOrigin = `cli@${hostname()}`;

/** Who acts from the command line, for the services' audit entries. */
export const operatorActor = (operator: string): Actor => ({ name: operator, kind: 'operator', origin: operatorOrigin });

export function registerAudit(program: Command): void {
  const audit = program
    .command('audit')
    .description('what operators and administrators did, newest first')
    .option('--client <id>', 'only this client')
    .option('--action <prefix>', 'only actions starting with this, e.g. points or launch-as')
    .option('--since <date>', 'only from this date or time (ISO 8601)')
    .option('--limit <n>', 'at most this many entries', '50');
  action<{ client?: string; action?: string; since?: string; limit: string }>(audit, async (db, { options }) => {
    if (options.client) await requireClient(db, options.client);
    const limit = wholeNumber('--limit', options.limit, 1, 10_000);
    if (options.since && Number.isNaN(Date.parse(options.since))) throw new CliError('--since must be a date such as 2026-11-01');
    const since = options.since ? new Date(options.since).toISOString() : undefined;
    const entries = await listAudit(db, { clientId: options.client, action: options.action, since, limit });
    const json = entries.map((e) => ({
      at: e.at,
      client: e.client_id,
      actor: e.actor,
      actorKind: e.actor_kind,
      action: e.action,
      subject: e.subject,
      details: JSON.parse(e.details) as unknown,
      origin: e.origin,
    }));
    if (entries.length === 0) return { human: 'No audit entries.', json };
    const human = json
      .map((e) =>
        [
          e.at,
          (e.client ?? '*').padEnd(8),
          e.actor.padEnd(12),
          e.action.padEnd(22),
          e.subject ?? '',
          JSON.stringify(e.details),
          e.origin ?? '',
        ]
          .join('  ')
          .trimEnd(),
      )
      .join('\n');
    return { human, json };
  });
}
