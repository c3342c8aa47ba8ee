import type { ConsoleClient, StaffRole } from '@rewards/contract/console';
import type { Db } from '../../db/database.ts';
import type { Staff } from './tables.ts';
import { errors } from '../../http/api-error.ts';
import { clientHostnames as clientHosts, clientNames } from '../clients/service.ts';
import { rolesOf } from './roles.ts';

/** The clients a person may see: an owner every one, anyone else those they hold a role in. */
export async function visibleClients(db: Db, staff: Staff): Promise<ConsoleClient[]> {
  const roles = new Map((await rolesOf(db, staff.id)).map((r) => [r.client_id, r.role as StaffRole]));
  const clients = await clientNames(db, staff.owner === 1 ? undefined : [...roles.keys()]);
  return Promise.all(
    clients.map(async (c) => ({ id: c.id, name: c.name, role: roles.get(c.id) ?? null, origins: await clientHosts(db, c.id) })),
  );
}

/** One client, for a caller whose role the guard has checked (an owner may name one that does not exist: 404). */
export async function clientForStaff(db: Db, staff: Staff, clientId: string): Promise<ConsoleClient> {
  const [client] = await clientNames(db, [clientId]);
  if (!client) throw errors.notFound();
  const role = (await rolesOf(db, staff.id)).find((r) => r.client_id === client.id)?.role as StaffRole | undefined;
  return { id: client.id, name: client.name, role: role ?? null, origins: await clientHosts(db, client.id) };
}
