import type { Command } from 'commander';
import { listOutbox } from '../../modules/mail/listing.ts';
import { action, wholeNumber } from '../cli-context.ts';

export function registerOutbox(program: Command): void {
  const outbox = program
    .command('outbox')
    .description('the latest mails, newest first; --json prints [{id, to, subject, template, status, createdAt, text, html, links}]')
    .option('--limit <n>', 'how many', '20')
    .option('--client <id>', 'only this client (default: all)');
  action<{ limit: string; client?: string }>(outbox, async (db, { options }) => {
    const limit = wholeNumber('--limit', options.limit, 1, 1000);
    const mails = await listOutbox(db, { limit, clientId: options.client });
    const human =
      mails.length === 0
        ? 'The outbox is empty.'
        : mails
            .map((m) =>
              [m.createdAt, m.status.padEnd(7), m.template.padEnd(15), m.to, JSON.stringify(m.subject), m.links[0] ?? '']
                .join('  ')
                .trimEnd(),
            )
            .join('\n');
    return { human, json: mails };
  });
}
