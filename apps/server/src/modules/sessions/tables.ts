import type { Selectable } from 'kysely';

export interface SessionsTable {
  /** SHA-256 of the session id; the id itself is never stored. */
  id_hash: string;
  client_id: string;
  participant_id: string;
  admin_as_user: number;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  absolute_expires_at: string;
}
export type Session = Selectable<SessionsTable>;

/**
 * When a participant last signed in (migration 023, decision 047): written with each session
 * that is not launch-as, by insertSession (store.ts).
 */
export interface ParticipantSignInsTable {
  client_id: string;
  participant_id: string;
  last_at: string;
}
