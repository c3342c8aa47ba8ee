import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditLogEntry } from './tables.ts';
import { insertAuditEntry, selectAudit } from './store.ts';

/**
 * The audit module's face to the others: they record through it and never write the table
 * themselves (decision 053). The trail's reading for the console is trail.ts; the operator's
 * `rewards audit` reads through listAudit.
 */

/** system: the server itself, unasked (the clean-up of staged imports nobody confirmed). api-key: a client's system through the program API (decision 083; the actor is the key's name). */
export type AuditActorKind = 'operator' | 'admin' | 'participant-session' | 'staff' | 'system' | 'api-key';

export interface AuditRecord {
  clientId: string | null;
  actor: string;
  actorKind: AuditActorKind;
  action: string;
  subject?: string | null;
  /** Counts, changed field names, a reason: never a secret. */
  details?: Record<string, unknown>;
  origin?: string | null;
}

/** Writes one audit entry in the caller's transaction, so the record and the change commit together; returns its id. */
export async function recordAudit(trx: Kysely<Database>, record: AuditRecord, now: Date = new Date()): Promise<string> {
  const id = randomUUID();
  await insertAuditEntry(trx, {
    id,
    client_id: record.clientId,
    at: now.toISOString(),
    actor: record.actor,
    actor_kind: record.actorKind,
    action: record.action,
    subject: record.subject ?? null,
    details: JSON.stringify(record.details ?? {}),
    origin: record.origin ?? null,
  });
  return id;
}

export interface AuditQuery {
  clientId?: string;
  /** Prefix of the action, e.g. "points" or "launch-as". */
  action?: string;
  since?: string;
  limit: number;
}

/** The latest entries first. A prefix is taken literally: LIKE's wildcards in it are dropped. */
export async function listAudit(db: Kysely<Database>, query: AuditQuery): Promise<AuditLogEntry[]> {
  return selectAudit(db, { ...query, actionPrefix: query.action?.replace(/[%_]/g, '') });
}
