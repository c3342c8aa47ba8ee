import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { findParticipantByUsername } from '../../modules/participants/service.ts';
import { clientOrigin, issueLaunchToken, LAUNCH_TOKEN_MINUTES } from '../../modules/launch-as/service.ts';
import { action, CliError, requireClient } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

/**
 * `rewards launch-as <username> --client <id> --admin <name> --reason <text>`: a single-use link
 * (2 minutes) that opens the participant's portal as them (docs/decisions/025).
 */
export function registerLaunchAs(program: Command): void {
  const launchAs = program
    .command('launch-as')
    .description(`print a single-use link (valid ${LAUNCH_TOKEN_MINUTES} minutes) that opens a participant's portal as them`)
    .argument('<username>', 'the participant')
    .requiredOption('--client <id>', 'the client (program) of the participant')
    .requiredOption('--admin <name>', 'the administrator who will open the link (recorded)')
    .requiredOption('--reason <text>', 'why, e.g. a support ticket (recorded)')
    .option(
      '--base-url <url>',
      "the portal's address, e.g. https://rewards.acme.example (default: the client's first public host over https, or http://localhost:$PORT)",
    );
  action<{ client: string; admin: string; reason: string; baseUrl?: string }>(launchAs, async (db, { args, options, operator }) => {
    const username = args[0] ?? '';
    await requireClient(db, options.client);
    const admin = options.admin.trim();
    const reason = options.reason.trim();
    if (admin.length === 0 || admin.length > 200) throw new CliError('--admin must be 1 to 200 characters');
    if (reason.length < 3 || reason.length > 500) throw new CliError('--reason must be 3 to 500 characters');
    if (options.baseUrl !== undefined && !/^https?:\/\/[^/]+\/?$/.test(options.baseUrl))
      throw new CliError('--base-url must be an origin such as https://rewards.acme.example');
    const participant = await findParticipantByUsername(db, options.client, username);
    if (!participant) throw new CliError(`No participant "${username}" in client "${options.client}"`);
    let origin: string;
    try {
      origin = await clientOrigin(db, options.client, { baseUrl: options.baseUrl, port: loadConfig().port });
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    const issued = await db.transaction().execute((trx) =>
      issueLaunchToken(trx, {
        participant,
        reason,
        issuedBy: admin,
        issuedVia: 'cli',
        actorKind: 'operator',
        issuedFrom: operatorOrigin,
        origin,
        details: { operator },
      }),
    );
    return {
      human: `${issued.url}\nOpens ${participant.username}'s portal once, until ${issued.expiresAt} (${LAUNCH_TOKEN_MINUTES} minutes).`,
      json: { url: issued.url, expiresAt: issued.expiresAt },
    };
  });
}
