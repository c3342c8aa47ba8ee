import type { Command } from 'commander';
import { listContactRequests } from '../../modules/content/service.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';

/**
 * `rewards contact list`: what participants wrote through the contact form, and whether each
 * message reached the support desk by mail (docs/decisions/038). A client without a support
 * address has its messages only here.
 */
export function registerContact(program: Command): void {
  const contact = program.command('contact').description('messages participants sent through the contact form');
  const list = contact
    .command('list')
    .description("a client's contact messages, newest first, with the state of their mail to the support desk")
    .option('--client <id>', 'the client (required)')
    .option('--since <date>', 'only from this date or time (ISO 8601)')
    .option('--limit <n>', 'at most this many messages', '50');
  action<{ client?: string; since?: string; limit: string }>(list, async (db, { options }) => {
    const client = await requireClient(db, options.client);
    const limit = wholeNumber('--limit', options.limit, 1, 10_000);
    if (options.since && Number.isNaN(Date.parse(options.since))) throw new CliError('--since must be a date such as 2026-11-01');
    const since = options.since ? new Date(options.since).toISOString() : undefined;
    const rows = await listContactRequests(db, { clientId: client.id, since, limit });
    const json = rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at,
      participantId: r.participant_id,
      username: r.username,
      accountNumber: r.account_number,
      accountEmail: r.account_email || null,
      replyEmail: r.reply_email,
      phone: r.phone,
      locale: r.locale,
      topic: r.topic,
      subject: r.subject,
      message: r.message,
      byAdministrator: r.admin_as_user === 1,
      status: r.status,
      // null: not mailed (the client had no support address when it was sent).
      mail: r.mail_id
        ? {
            id: r.mail_id,
            status: r.mail?.status ?? 'unknown',
            to: r.mail?.to ?? null,
            sentAt: r.mail?.sentAt ?? null,
            error: r.mail?.error ?? null,
          }
        : null,
    }));
    if (json.length === 0) return { human: `No contact messages for ${client.id}.`, json };
    const header = client.support_email
      ? `Support desk: ${client.support_email}`
      : 'No support address: these messages are not mailed (set one with rewards clients … --support-email).';
    const lines = json.map((m) =>
      [
        m.createdAt,
        m.username.padEnd(12),
        m.topic.padEnd(8),
        (m.mail ? `mail ${m.mail.status}` : 'not mailed').padEnd(12),
        JSON.stringify(m.subject),
        m.id,
      ].join('  '),
    );
    return { human: [header, ...lines].join('\n'), json };
  });
}
