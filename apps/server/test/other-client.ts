import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/database.ts';
import { hashPassword } from '../src/modules/auth/password.ts';
import { appendLedgerEntry } from '../src/modules/ledger/store.ts';
import { withSearchKeys } from '../src/modules/participants/search-keys.ts';
import { insertTestClient } from './test-client.ts';

export const OTHER_CLIENT_ID = 'globex';
export const OTHER_PASSWORD = 'Globex-Secret-1!';

/**
 * A second program on the same installation, with its own participant named "demo" too:
 * tests use it to show that nothing of one client resolves in the other.
 */
export async function seedOtherClient(db: Db): Promise<void> {
  const now = new Date().toISOString();
  await insertTestClient(db, OTHER_CLIENT_ID, {
    name: 'Globex Loyalty',
    default_locale: 'fr-FR',
    site_name: 'Globex',
    site_url: 'https://globex.example',
    portal_url: 'https://rewards.globex.example',
    password_rules: JSON.stringify({
      minLength: 8,
      maxLength: 64,
      requireUpper: false,
      requireLower: true,
      requireDigit: true,
      requireSymbol: false,
      notUsername: true,
    }),
    created_at: now,
  });
  await db.insertInto('client_hosts').values({ hostname: 'rewards.globex.example', client_id: OTHER_CLIENT_ID }).execute();
  await db
    .insertInto('client_locales')
    .values({ client_id: OTHER_CLIENT_ID, code: 'fr-FR', dir: 'ltr', name: 'Français', position: 1 })
    .execute();
  await db
    .insertInto('media_labels')
    .values({ client_id: OTHER_CLIENT_ID, locale: 'fr-FR', forms: JSON.stringify({ one: 'étoile', other: 'étoiles' }) })
    .execute();
  await db
    .insertInto('translations')
    .values({ client_id: OTHER_CLIENT_ID, locale: 'fr-FR', key: 'login.title', text: 'Bienvenue chez Globex' })
    .execute();
  const participantId = randomUUID();
  await db
    .insertInto('participants')
    .values(
      withSearchKeys({
        id: participantId,
        client_id: OTHER_CLIENT_ID,
        username: 'demo',
        username_key: 'demo',
        email: 'demo@globex.example',
        first_name: 'Gina',
        last_name: 'Globex',
        password_hash: await hashPassword(OTHER_PASSWORD),
        status: 'active',
        locale: 'fr-FR',
        account_number: '9000001',
        offers_merchandise: 0,
        offers_experiences: 0,
        ots_enabled: 0,
        privacy_ack_version: 0,
        balance: null,
        created_at: now,
      }),
    )
    .execute();
  // Gina's 77 points are a real ledger entry, so the ledger invariant holds for both clients.
  await db.transaction().execute((trx) =>
    appendLedgerEntry(trx, {
      clientId: OTHER_CLIENT_ID,
      participantId,
      occurredAt: now,
      description: 'Bonus de bienvenue',
      amount: 77,
      kind: 'award',
    }),
  );
}
