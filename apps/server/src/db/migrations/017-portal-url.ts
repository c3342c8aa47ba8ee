import type { Kysely } from 'kysely';

/**
 * docs/decisions/041. A client's portal address: the origin every link in its mails points to
 * (never the request's client-id). Clients made before get a default from their hosts, computed
 * here (frozen: later changes to the CLI's default do not touch old rows):
 * - the first public host, names before addresses, over https: https://rewards.acme.example;
 * - else (only loopback hosts, such as the demo's) the first such name on the default PORT over
 *   http: http://localhost:3000, http://nimbus.localhost:3000.
 * `rewards clients show` prints it; `rewards clients update --portal-url` changes it.
 */
const LOCAL = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const isAddress = (host: string) => /^[\d.]+$/.test(host) || host.startsWith('[');

function defaultPortalUrl(hosts: string[]): string {
  const sorted = [...hosts].sort();
  const first = (list: string[]) => list.find((host) => !isAddress(host)) ?? list[0];
  const publicHost = first(sorted.filter((host) => !LOCAL.test(host)));
  if (publicHost) return `https://${publicHost}`;
  const localHost = first(sorted);
  return localHost ? `http://${localHost}:3000` : '';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('portal_url', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const dbAny = db as Kysely<{ clients: { id: string; portal_url: string }; client_hosts: { hostname: string; client_id: string } }>;
  const hosts = await dbAny.selectFrom('client_hosts').select(['client_id', 'hostname']).execute();
  const clients = await dbAny.selectFrom('clients').select('id').execute();
  for (const client of clients) {
    const portalUrl = defaultPortalUrl(hosts.filter((h) => h.client_id === client.id).map((h) => h.hostname));
    await dbAny.updateTable('clients').set({ portal_url: portalUrl }).where('id', '=', client.id).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('portal_url').execute();
}
