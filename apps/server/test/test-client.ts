import type { Insertable } from 'kysely';
import type { Db } from '../src/db/database.ts';
import type { ClientsTable } from '../src/modules/clients/tables.ts';

/**
 * A bare client row of a test's own (no host, locale, participant or staff), with `extra`
 * over the defaults: tests that need a client nobody else touches make one with a fresh id.
 */
export async function insertTestClient(db: Db, clientId: string, extra: Partial<Insertable<ClientsTable>> = {}): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id: clientId,
      name: `Client ${clientId}`,
      default_locale: 'en-US',
      logo: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>',
      brand_color: '#047857',
      privacy_notice_version: 0,
      sso_type: 'login_only',
      sso_logout_type: 'login',
      site_name: clientId,
      site_url: `https://${clientId}.example`,
      portal_url: `https://rewards.${clientId}.example`,
      password_rules: JSON.stringify({ minLength: 8, maxLength: 64 }),
      activation_fields: '[]',
      countries: '[]',
      created_at: new Date().toISOString(),
      ...extra,
    })
    .execute();
}
