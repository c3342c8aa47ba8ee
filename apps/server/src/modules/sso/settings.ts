import { SsoLogoutType, SsoType } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { findClient } from '../clients/service.ts';
import { openSecret, secretKey } from './secret-box.ts';
import { findClientSso } from './store.ts';

/** Default claim naming the participant: Keycloak, Entra ID and most providers send it. */
export const DEFAULT_CLAIM = 'preferred_username';
export const DEFAULT_SCOPES = 'openid profile';

/** A client's single sign-on as the flow needs it; the secret is decrypted only here, in memory. */
export interface SsoSettings {
  clientId: string;
  ssoType: SsoType;
  ssoLogoutType: SsoLogoutType;
  site: { name: string; url: string };
  /** Undefined when no provider is configured or it was disabled. */
  provider?: { issuer: string; oidcClientId: string; clientSecret: string; scopes: string; claim: string };
}

/**
 * Sign-in through the provider is offered when a provider is configured and enabled and the type
 * is not login_only; the portal's own form stays unless the type is sso_only (decision 024).
 */
export function ssoSignInOffered(settings: Pick<SsoSettings, 'ssoType' | 'provider'>): boolean {
  return settings.provider !== undefined && settings.ssoType !== 'login_only';
}

export async function loadSsoSettings(db: Db, dataDir: string, clientId: string): Promise<SsoSettings | undefined> {
  const client = await findClient(db, clientId);
  if (!client) return undefined;
  const row = await findClientSso(db, clientId);
  const base = {
    clientId,
    ssoType: SsoType.parse(client.sso_type),
    ssoLogoutType: SsoLogoutType.parse(client.sso_logout_type),
    site: { name: client.site_name, url: client.site_url },
  };
  if (!row || row.enabled !== 1) return base;
  const clientSecret = openSecret(await secretKey(dataDir), clientId, row.client_secret_enc);
  return {
    ...base,
    provider: { issuer: row.issuer, oidcClientId: row.oidc_client_id, clientSecret, scopes: row.scopes, claim: row.claim },
  };
}

/** Whether the client has an enabled provider: what viewConfig/client tells the web (no secret read). */
export async function ssoProviderEnabled(db: Db, clientId: string): Promise<boolean> {
  const row = await db.selectFrom('client_sso').select('enabled').where('client_id', '=', clientId).executeTakeFirst();
  return row?.enabled === 1;
}

/** sso_only with a provider: the portal's own password sign-in is off, on the server too (decision 024). */
export async function passwordSignInOff(db: Db, clientId: string): Promise<boolean> {
  const client = await findClient(db, clientId);
  return client?.sso_type === 'sso_only' && (await ssoProviderEnabled(db, clientId));
}
