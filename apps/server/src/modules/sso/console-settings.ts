import { SsoLogoutType, SsoType } from '@rewards/contract';
import type { SsoSettings, SsoSettingsRequest } from '@rewards/contract/console-clients';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { findClient, updateClientSsoSettings } from '../clients/service.ts';
import { auditSettingsChange } from '../clients/settings-audit.ts';
import type { Actor } from '../participants/operator-service.ts';
import { CLAIM_PATTERN, checkDiscovery, normalScopes, ssoRedirectUris } from './operator.ts';
import { checkIssuer } from './provider.ts';
import { openSecret, sealSecret, secretKey } from './secret-box.ts';
import { DEFAULT_CLAIM, DEFAULT_SCOPES } from './settings.ts';
import { disableClientSso, findClientSso, upsertClientSso } from './store.ts';

/*
 * A client's single sign-on from the console (issue 20 §3, part H, decision 065): the checks of
 * `rewards clients sso` (issuer, claim, scopes, types, site; the discovery document read with the
 * credentials before anything is stored), one transaction with one `clients.settings` audit entry
 * holding each changed setting from and to. The secret is write-only: sealed at rest, never in a
 * reply, the audit ("changed") or a log.
 */

/** As it is now; 404 for an unknown client. */
export async function readSsoSettings(db: Db, clientId: string): Promise<SsoSettings> {
  const client = await findClient(db, clientId);
  if (!client) throw errors.notFound();
  const row = await findClientSso(db, clientId);
  return {
    enabled: row?.enabled === 1,
    issuer: row?.issuer ?? null,
    oidcClientId: row?.oidc_client_id ?? null,
    secretStored: row !== undefined,
    claim: row?.claim ?? DEFAULT_CLAIM,
    scopes: row?.scopes ?? DEFAULT_SCOPES,
    ssoType: SsoType.parse(client.sso_type),
    ssoLogoutType: SsoLogoutType.parse(client.sso_logout_type),
    siteName: client.site_name,
    siteUrl: client.site_url,
    redirectUris: await ssoRedirectUris(db, clientId),
  };
}

type Change = Omit<SsoSettingsRequest, 'reason'>;
type Stored = Omit<SsoSettings, 'secretStored' | 'redirectUris'>;
const KEYS = ['enabled', 'issuer', 'oidcClientId', 'claim', 'scopes', 'ssoType', 'ssoLogoutType', 'siteName', 'siteUrl'] as const;

function text(what: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > max) throw errors.validation(`${what} must be 1 to ${max} characters`);
  return trimmed;
}

function httpUrl(value: string): string {
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
  } catch {
    // Falls through to the refusal below.
  }
  throw errors.validation('the site URL must be an http(s) URL');
}

/** What the change asks for, every value checked as the command checks it; the secret to use (given or stored). */
async function wanted(db: Db, dataDir: string, clientId: string, change: Change): Promise<{ to: Stored; secret?: string; given: boolean }> {
  const client = await findClient(db, clientId);
  if (!client) throw errors.notFound();
  const existing = await findClientSso(db, clientId);
  if (!change.enabled)
    return {
      to: {
        enabled: false,
        issuer: existing?.issuer ?? null,
        oidcClientId: existing?.oidc_client_id ?? null,
        claim: existing?.claim ?? DEFAULT_CLAIM,
        scopes: existing?.scopes ?? DEFAULT_SCOPES,
        ssoType: 'login_only',
        ssoLogoutType: 'login',
        siteName: client.site_name,
        siteUrl: client.site_url,
      },
      given: false,
    };
  const issuerText = change.issuer !== undefined && change.issuer.trim() !== '' ? change.issuer.trim() : existing?.issuer;
  const oidcClientId =
    change.oidcClientId !== undefined && change.oidcClientId.trim() !== ''
      ? text('the client id', change.oidcClientId, 400)
      : existing?.oidc_client_id;
  const given = change.clientSecret !== undefined && change.clientSecret !== '';
  const secret = given
    ? text('the client secret', change.clientSecret ?? '', 1000)
    : existing
      ? openSecret(await secretKey(dataDir), clientId, existing.client_secret_enc)
      : undefined;
  if (!issuerText || !oidcClientId || secret === undefined)
    throw errors.validation('the issuer, the client id and the client secret are required the first time');
  const issuer = checkIssuer(issuerText);
  if (typeof issuer === 'string') throw errors.validation(`issuer: ${issuer}`);
  const claim = change.claim?.trim() || (existing?.claim ?? DEFAULT_CLAIM);
  if (!CLAIM_PATTERN.test(claim)) throw errors.validation('the claim must be a claim name (letters, digits, _ . : -)');
  const scopes = normalScopes(change.scopes ?? existing?.scopes ?? DEFAULT_SCOPES);
  if (scopes === undefined) throw errors.validation('the scopes must be up to 20 scope names separated by spaces');
  const ssoType = SsoType.safeParse(change.ssoType ?? (client.sso_type === 'login_only' ? 'login_and_sso' : client.sso_type));
  if (!ssoType.success) throw errors.validation(`the sign-in type must be one of ${SsoType.options.join(', ')}`);
  const logoutType = SsoLogoutType.safeParse(change.ssoLogoutType ?? client.sso_logout_type);
  if (!logoutType.success) throw errors.validation(`the logout type must be one of ${SsoLogoutType.options.join(', ')}`);
  const siteName =
    change.siteName !== undefined && change.siteName.trim() !== '' ? text('the site name', change.siteName, 100) : client.site_name;
  const siteUrl = change.siteUrl !== undefined && change.siteUrl.trim() !== '' ? httpUrl(change.siteUrl) : client.site_url;
  if (ssoType.data !== 'login_only' && !siteName)
    throw errors.validation('the site name is required: the sign-in page shows "Sign in with <name>"');
  if (logoutType.data === 'sso' && !siteUrl)
    throw errors.validation('the site URL is required with the logout type sso: it is where signing out ends');
  return {
    to: {
      enabled: true,
      issuer: issuerText,
      oidcClientId,
      claim,
      scopes,
      ssoType: ssoType.data,
      ssoLogoutType: logoutType.data,
      siteName,
      siteUrl,
    },
    secret,
    given,
  };
}

/**
 * Sets single sign-on. Turning it on reads the provider's discovery document first (a provider that
 * cannot be read is a 400 and nothing is stored); turning it off keeps the provider, as
 * `rewards clients sso --disable` does. An unchanged set writes nothing (auditId null).
 */
export async function setSsoSettings(
  db: Db,
  dataDir: string,
  actor: Actor,
  clientId: string,
  change: Change,
  reason?: string,
  now = new Date(),
): Promise<{ to: SsoSettings; auditId: string | null; endSessionEndpoint: boolean | null }> {
  const { to, secret, given } = await wanted(db, dataDir, clientId, change);
  let endSessionEndpoint: boolean | null = null;
  if (to.enabled && to.issuer && to.oidcClientId && secret !== undefined) {
    // Outside the transaction: a network read of up to the provider's timeout.
    const discovered = await checkDiscovery(to.issuer, to.oidcClientId, secret);
    if ('error' in discovered) throw errors.validation(`cannot read the discovery document of ${to.issuer}: ${discovered.error}`);
    endSessionEndpoint = discovered.endSession;
  }
  const key = to.enabled ? await secretKey(dataDir) : undefined;
  const auditId = await db.transaction().execute(async (trx) => {
    const from = await readSsoSettings(trx, clientId);
    const existing = await findClientSso(trx, clientId);
    const secretChanged = given && key !== undefined && (!existing || openSecret(key, clientId, existing.client_secret_enc) !== secret);
    const changed = KEYS.filter((k) => from[k] !== to[k]);
    if (changed.length === 0 && !secretChanged) return null;
    const stamp = now.toISOString();
    if (key !== undefined && to.issuer && to.oidcClientId && secret !== undefined) {
      await upsertClientSso(
        trx,
        clientId,
        {
          issuer: to.issuer,
          oidcClientId: to.oidcClientId,
          clientSecretEnc: sealSecret(key, clientId, secret),
          scopes: to.scopes,
          claim: to.claim,
        },
        stamp,
      );
    } else await disableClientSso(trx, clientId, stamp);
    await updateClientSsoSettings(trx, clientId, {
      ssoType: to.ssoType,
      ssoLogoutType: to.ssoLogoutType,
      siteName: to.siteName,
      siteUrl: to.siteUrl,
    });
    const details: Record<string, unknown> = {};
    for (const k of changed) details[k] = { from: from[k], to: to[k] };
    // Only that it changed: never the secret, nor anything derived from it.
    if (secretChanged) details.clientSecret = 'changed';
    return auditSettingsChange(trx, actor, clientId, details, reason);
  });
  return { to: await readSsoSettings(db, clientId), auditId, endSessionEndpoint };
}
