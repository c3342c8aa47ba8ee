import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { withSearchKeys } from '../participants/search-keys.ts';
import { sealSecret, secretKey } from './secret-box.ts';
import { updateClientSsoSettings } from '../clients/service.ts';
import { upsertClientSso } from './store.ts';

/** What `rewards clients sso` writes, without the discovery check: for tests that set SSO up directly. */
export async function configureSsoForTest(
  db: Db,
  dataDir: string,
  clientId: string,
  provider: { issuer: string; clientId: string; clientSecret: string },
  settings: { ssoType?: string; ssoLogoutType?: string; siteName?: string; siteUrl?: string; claim?: string } = {},
): Promise<void> {
  const key = await secretKey(dataDir);
  await db.transaction().execute(async (trx) => {
    await upsertClientSso(
      trx,
      clientId,
      {
        issuer: provider.issuer,
        oidcClientId: provider.clientId,
        clientSecretEnc: sealSecret(key, clientId, provider.clientSecret),
        scopes: 'openid profile',
        claim: settings.claim ?? 'preferred_username',
      },
      new Date().toISOString(),
    );
    await updateClientSsoSettings(trx, clientId, {
      ssoType: settings.ssoType ?? 'login_and_sso',
      ssoLogoutType: settings.ssoLogoutType ?? 'sso',
      siteName: settings.siteName ?? 'Acme Intranet',
      siteUrl: settings.siteUrl ?? 'https://intranet.acme.example/',
    });
  });
}

/** A participant of one client only, copied from an existing one under a new username. */
export async function copyParticipant(db: Db, clientId: string, fromUsername: string, username: string): Promise<void> {
  const from = await db
    .selectFrom('participants')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('username_key', '=', fromUsername)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('participants')
    .values(
      withSearchKeys({
        ...from,
        id: randomUUID(),
        username,
        username_key: username.toLowerCase(),
        account_number: `${from.account_number}9`,
        balance: null,
      }),
    )
    .execute();
}
