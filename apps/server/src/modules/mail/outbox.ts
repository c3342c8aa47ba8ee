import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The mails the portal sends (issue 7); each has a template per client and locale. */
export type MailTemplate = 'forgotUsername' | 'resetPassword' | 'activated' | 'passwordChanged';

export interface OutgoingMail {
  clientId: string;
  /** The participant it is about, if any (for the operator's outbox listing). */
  participantId?: string;
  to: string;
  locale: string;
  template: MailTemplate;
  /**
   * Values for the template. Links are absolute URLs on the client's own origin, e.g.
   * { link: 'https://rewards.acme.example/reset-password?passwordGuid=…' }; usernames
   * as { usernames: 'demo, dana' } and the like.
   */
  params: Readonly<Record<string, string>>;
}

/**
 * Queues a mail in the caller's transaction, so it is sent only if the change that caused it
 * commits; delivery happens after the reply (never blocking it), with retries. Filled in by the
 * mail capability (issue 7, section 4).
 */
export async function queueMail(_trx: Transaction<Database>, _mail: OutgoingMail): Promise<void> {}
