import type { Db } from '../../db/database.ts';
import { linksIn } from './render.ts';

/** One mail as `npm run rewards -- outbox --json` prints it (the browser tests read this shape). */
export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  template: string;
  status: string;
  createdAt: string;
  text: string;
  html: string;
  /** Every http(s) address in the text part, in order. */
  links: string[];
}

/** The latest mails, newest first; of one client or of all. */
export async function listOutbox(db: Db, options: { limit: number; clientId?: string | undefined }): Promise<OutboxEntry[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'subject', 'template', 'status', 'created_at', 'text_body', 'html_body'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.clientId !== undefined) query = query.where('client_id', '=', options.clientId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    template: row.template,
    status: row.status,
    createdAt: row.created_at,
    text: row.text_body,
    html: row.html_body,
    links: linksIn(row.text_body),
  }));
}
