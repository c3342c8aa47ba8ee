import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AuditLogEntry } from './tables.ts';

/** What the console's audit trail asks for, checked and scoped by trail.ts. */
export interface TrailFilter {
  /** The clients whose entries may be shown; 'all': an owner (entries without a client too). */
  clients: readonly string[] | 'all';
  /** Prefix of the actor, compared in lower case. */
  actorPrefix?: string;
  actionPrefix?: string;
  /** One participant's entries: the subjects they were recorded under, in their client when known. */
  subject?: { clientId?: string; subjects: readonly string[] };
  /** ISO times: from inclusive, before exclusive. */
  from?: string;
  before?: string;
}

export interface TrailCursor {
  at: string;
  id: string;
}

/**
 * Entries newest first (ties by id), `limit` of them after the cursor. Walks the (client_id,
 * at, id) index, (at, id) for an owner over every client, or (client_id, subject, at, id) for
 * one participant; actor and action prefixes are tested on the rows walked.
 */
export async function trailPage(db: Db, filter: TrailFilter, after: TrailCursor | undefined, limit: number): Promise<AuditLogEntry[]> {
  if (filter.clients !== 'all' && filter.clients.length === 0) return [];
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.subject) {
    if (filter.subject.clientId !== undefined) query = query.where('client_id', '=', filter.subject.clientId);
    query = query.where('subject', 'in', filter.subject.subjects);
  }
  if (filter.clients !== 'all') query = query.where('client_id', 'in', filter.clients);
  if (filter.actorPrefix) {
    const prefix = filter.actorPrefix.toLowerCase();
    query = query.where(sql<string>`lower(substr(actor, 1, ${[...prefix].length}))`, '=', prefix);
  }
  if (filter.actionPrefix)
    query = query.where(sql<string>`substr(action, 1, ${[...filter.actionPrefix].length})`, '=', filter.actionPrefix);
  if (filter.from) query = query.where('at', '>=', filter.from);
  if (filter.before) query = query.where('at', '<', filter.before);
  if (after) query = query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after.at, after.id)));
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
