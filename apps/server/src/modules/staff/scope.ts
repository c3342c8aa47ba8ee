import type { StaffRole } from '@rewards/contract/console';
import type { Db } from '../../db/database.ts';
import type { Staff } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { clientNames } from '../clients/service.ts';
import { rolesOf } from './roles.ts';

/**
 * What a person may read across clients (issue 17, section 2): an owner every client (and the
 * installation's entries that name none), anyone else the clients they hold any role in.
 */
export interface StaffScope {
  owner: boolean;
  /** The clients they may see, in id order (an owner: every client). */
  clientIds: string[];
  roles: Map<string, StaffRole>;
}

export async function staffScope(db: Db, staff: Staff): Promise<StaffScope> {
  const roles = new Map((await rolesOf(db, staff.id)).map((r) => [r.client_id, r.role as StaffRole]));
  const owner = staff.owner === 1;
  const clientIds = owner ? (await clientNames(db)).map((c) => c.id) : [...roles.keys()].sort();
  return { owner, clientIds, roles };
}

/** A client named by a filter: one the person may see, else 403 (whether it exists or not). */
export function checkClientInScope(scope: StaffScope, clientId: string): void {
  if (scope.owner) return;
  if (!scope.roles.has(clientId)) throw errors.forbidden();
}
