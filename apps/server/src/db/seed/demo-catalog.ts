import { createHash } from 'node:crypto';
import type { DemoSeedContext } from './demo-context.ts';

/**
 * The demo catalog's partner credentials (README). A demo value, public on purpose: a real
 * catalog gets its own high-entropy secret, of which the portal keeps only the SHA-256.
 */
export const DEMO_CATALOG_PARTNER_ID = 'demo-catalog';
export const DEMO_CATALOG_PARTNER_SECRET = 'demo-catalog-secret-not-for-production-4f9c2a';

/** The catalog part of the demo program (issue 5): the demo catalog served at /demo-catalog/. */
export async function seedDemoCatalog(ctx: DemoSeedContext): Promise<void> {
  const { trx, clientId, now } = ctx;
  await trx
    .insertInto('catalog_partners')
    .values({
      id: DEMO_CATALOG_PARTNER_ID,
      client_id: clientId,
      name: 'Acme demo catalog',
      secret_hash: createHash('sha256').update(DEMO_CATALOG_PARTNER_SECRET, 'utf8').digest('hex'),
      created_at: now.toISOString(),
    })
    .execute();
  // Paths, not URLs: resolved against the portal origin the participant uses, so any port works.
  await trx
    .insertInto('client_catalogs')
    .values([
      { client_id: clientId, kind: 'merchandise', url: '/demo-catalog/merchandise', partner_id: DEMO_CATALOG_PARTNER_ID },
      { client_id: clientId, kind: 'experiences', url: '/demo-catalog/experiences', partner_id: DEMO_CATALOG_PARTNER_ID },
      { client_id: clientId, kind: 'travel', url: '/demo-catalog/travel', partner_id: null },
    ])
    .execute();
}
