import type { Selectable } from 'kysely';

/** One thing an operator or administrator did (docs/decisions/020): imports, changes, launch-as. */
export interface AuditLogTable {
  id: string;
  /** Null for installation-wide actions (creating an admin key for all clients). */
  client_id: string | null;
  at: string;
  /** `--operator`, the OS user, or the admin key's name. */
  actor: string;
  /** operator (the rewards command) | admin (admin API key) | participant-session (what a launched-as admin opened) | staff | system (the server, unasked) */
  actor_kind: string;
  /** Dotted verb, e.g. clients.create, points.import, launch-as.issue. */
  action: string;
  /** What it acted on: a username, a file, a code hint. */
  subject: string | null;
  /** JSON: counts, changed fields (never a secret), a reason. */
  details: string;
  /** Where from: host name of the operator's machine, or the caller's address. */
  origin: string | null;
}
export type AuditLogEntry = Selectable<AuditLogTable>;
