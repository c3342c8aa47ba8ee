import type { Command } from 'commander';
import { findParticipantByUsername } from '../../modules/participants/service.ts';
import { deleteParticipantSessions, purgeExpiredSessions } from '../../modules/sessions/service.ts';
import { action, CliError, requireClient } from '../cli-context.ts';

export function registerSessions(program: Command): void {
  const sessions = program.command('sessions').description('participant sessions');
  const revoke = sessions
    .command('revoke')
    .description('sign a participant out everywhere (same as participants sessions end)')
    .requiredOption('--username <name>', 'the participant')
    .option('--client <id>', 'the client', 'acme');
  action<{ username: string; client: string }>(revoke, async (db, { options }) => {
    await requireClient(db, options.client);
    const participant = await findParticipantByUsername(db, options.client, options.username);
    if (!participant) throw new CliError(`No participant "${options.username}" in client "${options.client}"`);
    const count = await deleteParticipantSessions(db, options.client, participant.id);
    return { human: `Ended ${count} session(s) of ${participant.username}.`, json: { username: participant.username, ended: count } };
  });
  action(sessions.command('purge').description('delete expired sessions'), async (db) => {
    const deleted = await purgeExpiredSessions(db);
    return { human: `Deleted ${deleted} expired session(s).`, json: { deleted } };
  });
}
