import type { ColumnType } from 'kysely';

/** A client's Markdown text for a content key in one locale (rules, FAQs, privacy texts). */
export interface ContentEntriesTable {
  client_id: string;
  locale: string;
  /** faqs | privacyPolicy | privacyNotice | rules.<program name> */
  key: string;
  /** Markdown; rendered to HTML with raw HTML disabled when served. */
  body: string;
  updated_at: string;
}

/** A contact-us message for the client's support desk. */
export interface ContactRequestsTable {
  id: string;
  client_id: string;
  participant_id: string;
  /** Who wrote, as the desk looks accounts up: copied at the time of writing. */
  username: string;
  account_number: string;
  account_email: string;
  /** points | order | ots | account | other */
  topic: string;
  subject: string;
  message: string;
  reply_email: string | null;
  phone: string | null;
  /** The participant's language, so the desk can answer in it. */
  locale: string;
  /** 1 when an administrator acting as the participant sent it. */
  admin_as_user: number;
  /** new, then whatever the desk's tool sets. */
  status: string;
  created_at: string;
  /**
   * The outbox row that carries the message to the support desk; null: not mailed (no support
   * address). Migration 014, decision 038.
   */
  mail_id: ColumnType<string | null, string | null | undefined, string | null>;
}
