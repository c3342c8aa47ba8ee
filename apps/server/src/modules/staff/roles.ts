import { clientNames } from '../clients/service.ts';
import type { Db } from '../../db/database.ts';
import { roleRows, type RoleRow } from './store.ts';

/** Roles with their client's name (the clients module's), by client; one person's, or everyone's. */
export async function rolesOf(db: Db, staffId?: string): Promise<RoleRow[]> {
  const rows = await roleRows(db, staffId);
  if (rows.length === 0) return [];
  const names = new Map((await clientNames(db, [...new Set(rows.map((row) => row.client_id))])).map((c) => [c.id, c.name]));
  return rows.flatMap((row) => {
    const name = names.get(row.client_id);
    return name === undefined ? [] : [{ ...row, client_name: name }];
  });
}
