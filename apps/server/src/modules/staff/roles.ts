import { clientNames } from '../clients/service.ts';
import type { Db } from '../../db/database.ts';
import { activeOwnersOr, roleRows, staffIdsWithRole, type RoleRow } from './store.ts';

/*
 * What other modules ask of the staff module (decision 053): the roles people hold, as the
 * console's guards read them, and who answers for a client.
 */

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

/** The role a staff member holds in a client, as the console's guards read it; undefined when none. */
export async function roleIn(db: Db, staffId: string, clientId: string): Promise<string | undefined> {
  return (await roleRows(db, staffId)).find((row) => row.client_id === clientId)?.role;
}

/**
 * Who answers for a client's settings: the active owners (the whole installation) and the
 * active program managers of that client, once each, by address (the installation's notices
 * about the client go to them).
 */
export async function clientMaintainers(db: Db, clientId: string): Promise<Array<{ email: string; name: string }>> {
  return activeOwnersOr(db, await staffIdsWithRole(db, clientId, 'program_manager'));
}
