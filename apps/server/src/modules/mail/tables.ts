import type { ColumnType } from 'kysely';

/**
 * pending: to send (at next_attempt_at) · sending: claimed by a worker until claimed_until · sent · failed ·
 * dropped: a stand-in (template noMail) built and not sent, deleted a day after (decision 018, amended 2026-11-28)
 */
type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'dropped';

/** A mail the portal sends, queued with the change that causes it, rendered and delivered after it commits (decision 042). */
export interface MailOutboxTable {
  id: string;
  /** null: a mail of the installation, not of a client (the console's enrolment links, migration 024). */
  client_id: string | null;
  participant_id: string | null;
  to_address: string;
  locale: string;
  /** forgotUsername | resetPassword | activated | passwordChanged | contactMessage | noMail (decision 042) | staffInvitation | staffReset (decision 049) | webhookEndpointDisabled (decision 084) | expiryReminder | expiryLastChance (decision 061) */
  template: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string;
  /** The lease of the worker sending it (status sending); another worker leaves it alone until then. */
  claimed_until: string | null;
  /** Why the last attempt failed, short, no secrets. */
  last_error: string | null;
  /** Where it went: "smtp: <server reply>" or "file: <path of the .eml>". */
  delivery_note: string | null;
  sent_at: string | null;
  /** Stable per row, so a duplicate would be recognisable. */
  message_id: string;
  created_at: string;
  /** Reply-To of the mail (a contact message: the participant's address); null: none (migration 014, decision 038). */
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * What the delivery worker renders the mail from (JSON: the template's values and the client's
   * origin); null once the mail is sent or given up, and on rows rendered when queued (before 018).
   * subject, text_body and html_body stay '' until delivery, and the bodies are '' again after it.
   */
  params: ColumnType<string | null, string | null | undefined, string | null>;
}
