import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditLogEntry, AuditLogTable } from './tables.ts';

/** One audit row, in the caller's transaction. */
export async function insertAuditEntry(trx: Kysely<Database>, row: Insertable<AuditLogTable>): Promise<void> {
  await trx.insertInto('audit_log').values(row).execute();
}

/** The latest entries first, of a client, from a time, whose action starts with `actionPrefix` (a LIKE pattern's literal part). */
export async function selectAudit(
  db: Kysely<Database>,
  query: { clientId?: string | undefined; actionPrefix?: string | undefined; since?: string | undefined; limit: number },
): Promise<AuditLogEntry[]> {
  let select = db.selectFrom('audit_log').selectAll();
  if (query.clientId) select = select.where('client_id', '=', query.clientId);
  if (query.actionPrefix) select = select.where('action', 'like', `${query.actionPrefix}%`);
  if (query.since) select = select.where('at', '>=', query.since);
  return select.orderBy('at', 'desc').orderBy('id').limit(query.limit).execute();
}
