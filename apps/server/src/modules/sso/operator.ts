import type { Db } from '../../db/database.ts';
import { discoverProvider } from './provider.ts';
import { recordAudit } from '../audit/service.ts';
import type { Actor } from '../participants/operator-service.ts';
import { clientHostnames, updateClientSsoSettings } from '../clients/service.ts';
import { disableClientSso, upsertClientSso, type ClientSsoRow } from './store.ts';

// An operator's settings of a client's single sign-on (`rewards clients sso`, decision 024):
// each change commits with its audit entry, which never holds the secret.

export { findClientSso } from './store.ts';

/** A claim name: what `--claim` and the console's claim accept. */
export const CLAIM_PATTERN = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Up to 20 scope names separated by spaces or commas, openid first if missing; undefined when not that. */
export function normalScopes(value: string): string | undefined {
  const scopes = value.split(/[\s,]+/).filter(Boolean);
  if (scopes.length === 0 || scopes.length > 20 || scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(s))) return undefined;
  if (!scopes.includes('openid')) scopes.unshift('openid');
  return [...new Set(scopes)].join(' ');
}

/**
 * The discovery check `rewards clients sso` and the console run before storing a provider: its
 * discovery document read with these credentials. Whether it publishes an end-session endpoint, or
 * the first line of why it could not be read (no stack, no body).
 */
export async function checkDiscovery(
  issuer: string,
  oidcClientId: string,
  clientSecret: string,
): Promise<{ endSession: boolean } | { error: string }> {
  try {
    const discovered = await discoverProvider({ issuer, clientId: oidcClientId, clientSecret });
    return { endSession: Boolean(discovered.serverMetadata().end_session_endpoint) };
  } catch (error) {
    return { error: (error instanceof Error ? error.message.split('\n')[0] : undefined) ?? 'unknown error' };
  }
}

/** The callback URL of each host of the client, to register at the provider (http on a loopback host only). */
export async function ssoRedirectUris(db: Db, clientId: string): Promise<string[]> {
  return (await clientHostnames(db, clientId)).map(
    (hostname) => `${hostname === 'localhost' || hostname === '127.0.0.1' ? 'http' : 'https'}://${hostname}/api/v1.0/sso/callback`,
  );
}

/** Turns single sign-on off (sign-in type login_only, logout type login); the provider settings are kept. */
export async function disableSso(db: Db, actor: Actor, clientId: string, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await disableClientSso(trx, clientId, now.toISOString());
    await updateClientSsoSettings(trx, clientId, { ssoType: 'login_only', ssoLogoutType: 'login' });
    await recordAudit(trx, {
      clientId,
      actor: actor.name,
      actorKind: actor.kind,
      action: 'clients.sso.disable',
      subject: clientId,
      details: {},
      origin: actor.origin,
    });
  });
}

export interface SsoSettings {
  provider: ClientSsoRow;
  ssoType: string;
  ssoLogoutType: string;
  siteName?: string | undefined;
  siteUrl?: string | undefined;
  /** Whether the operator gave a new secret (the audit entry says so, never the secret). */
  secretChanged: boolean;
}

/** Stores the provider (turned on) and the client's sign-in settings. */
export async function configureSso(db: Db, actor: Actor, clientId: string, settings: SsoSettings, now = new Date()): Promise<void> {
  const { provider } = settings;
  await db.transaction().execute(async (trx) => {
    await upsertClientSso(trx, clientId, provider, now.toISOString());
    await updateClientSsoSettings(trx, clientId, {
      ssoType: settings.ssoType,
      ssoLogoutType: settings.ssoLogoutType,
      siteName: settings.siteName,
      siteUrl: settings.siteUrl,
    });
    await recordAudit(trx, {
      clientId,
      actor: actor.name,
      actorKind: actor.kind,
      action: 'clients.sso.configure',
      subject: clientId,
      details: {
        issuer: provider.issuer,
        clientId: provider.oidcClientId,
        claim: provider.claim,
        scopes: provider.scopes,
        ssoType: settings.ssoType,
        ssoLogoutType: settings.ssoLogoutType,
        siteName: settings.siteName,
        siteUrl: settings.siteUrl,
        secretChanged: settings.secretChanged,
      },
      origin: actor.origin,
    });
  });
}
