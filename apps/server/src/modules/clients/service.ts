import {
  ClientData,
  Direction,
  type LocaleOption,
  PasswordRules,
  PluralForms,
  SsoLogoutType,
  SsoType,
  ClientCountry,
} from '@rewards/contract';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { LogoType } from './tables.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { errors } from '../../http/api-error.ts';
import { findClientCatalog } from '../catalog/service.ts';
import { buildWebBundle } from '../i18n/service.ts';
import type { SessionPolicy } from '../sessions/service.ts';
import { ssoProviderEnabled } from '../sso/settings.ts';
import { findClient, listClientLocales, listHosts, listMediaLabels, listPortalUrls, updateClient } from './store.ts';
import { productionOriginProblem } from '../../http/production-origins.ts';

// What other modules may use of this module's store, named here: they call the service, never
// the store (decision 053).
export { findClient, findClientIdByHostname, listClientLocales, listMediaLabels } from './store.ts';
// Exact reads for the operator's commands (`clients show|list`, decision 089).
export { clientNames, listClientIds, listClientSummaries, listHosts, readClient, readClientLocales, readMediaLabels } from './store.ts';
// The settings other modules read as they stand, uncached (in their transaction where they pass
// one): a support agent's adjustment limit (decision 078), the expiry's policies (decision 057).
export { expiryDatingOf, listClientColumns, readClientColumns } from './store.ts';

/**
 * The client's SSO columns, written by the sso module's settings in its own transaction with its
 * `client_sso` row; a name or address left undefined is kept.
 */
export async function updateClientSsoSettings(
  db: Db,
  clientId: string,
  settings: { ssoType: string; ssoLogoutType: string; siteName?: string; siteUrl?: string },
): Promise<void> {
  await updateClient(db, clientId, {
    sso_type: settings.ssoType,
    sso_logout_type: settings.ssoLogoutType,
    ...(settings.siteName === undefined ? {} : { site_name: settings.siteName }),
    ...(settings.siteUrl === undefined ? {} : { site_url: settings.siteUrl }),
  });
}

/** The client's host names, sorted (each an origin of its portal, a redirect address at a provider). */
export async function clientHostnames(db: Db, clientId: string): Promise<string[]> {
  return (await listHosts(db, clientId)).map((host) => host.hostname);
}

/**
 * Where the client's logo is served. The extension follows the stored type when known; the
 * route serves the logo under either with its real media type (mail links name .svg).
 */
export function logoUrl(clientId: string, type: LogoType = 'image/svg+xml'): string {
  return `/brand/${encodeURIComponent(clientId)}/logo.${type === 'image/png' ? 'png' : 'svg'}`;
}

/** A short digest of the logo: the portal's logo address names it, so the browser may keep it for a year. */
export function logoVersion(logo: string): string {
  return createHash('sha256').update(logo).digest('base64url').slice(0, 12);
}

/** The locales a client offers, in its order; the first step of every locale check. */
export async function clientLocales(db: Db, clientId: string): Promise<LocaleOption[]> {
  return cachedRead(db, `clientLocales:${clientId}`, async () => {
    const rows = await listClientLocales(db, clientId);
    return rows.map((row) => ({ code: row.code, dir: Direction.parse(row.dir), name: row.name }));
  });
}

/**
 * GET viewConfig/client's data, built once per read-cache lifetime instead of on every request
 * (docs/decisions/014); the route writes and compresses it once per content (http/compressed-once).
 */
export function clientData(db: Db, clientId: string, sessionPolicy: Pick<SessionPolicy, 'idleMinutes'>): Promise<ClientData> {
  return cachedRead(db, `clientData:${clientId}:${sessionPolicy.idleMinutes}`, () => getClientData(db, clientId, sessionPolicy));
}

/** GET viewConfig/client: everything the portal needs before anyone signs in. */
export async function getClientData(db: Db, clientId: string, sessionPolicy: Pick<SessionPolicy, 'idleMinutes'>): Promise<ClientData> {
  const client = await findClient(db, clientId);
  if (!client) throw errors.unknownClient();
  const [locales, labels, bundle, travel, ssoProvider] = await Promise.all([
    clientLocales(db, clientId),
    listMediaLabels(db, clientId),
    buildWebBundle(db, clientId, client.default_locale),
    findClientCatalog(db, clientId, 'travel'),
    ssoProviderEnabled(db, clientId),
  ]);
  const ssoType = SsoType.parse(client.sso_type);
  const ssoSignIn = ssoProvider && ssoType !== 'login_only';
  const defaultLocale = locales.find((l) => l.code === client.default_locale) ?? { code: client.default_locale, dir: 'ltr' as const };
  return {
    passwordRules: PasswordRules.parse(JSON.parse(client.password_rules)),
    locale: { code: defaultLocale.code, dir: defaultLocale.dir },
    localeList: locales,
    bundleList: { [bundle.locale]: bundle },
    clientBranding: {
      clientName: client.name,
      // Versioned: a changed logo is a new address (served with a year's cache, decision 026).
      clientLogo: `${logoUrl(client.id, client.logo_type)}?v=${logoVersion(client.logo)}`,
      brandColor: client.brand_color,
      activationFields: z.array(z.string()).parse(JSON.parse(client.activation_fields)),
      mediaLabels: labels.map((label) => {
        const forms = PluralForms.parse(JSON.parse(label.forms));
        return { locale: label.locale, cmText: forms.other, forms };
      }),
    },
    clientCountries: z.array(ClientCountry).parse(JSON.parse(client.countries)),
    ssoConfig: {
      clientSite: { name: client.site_name, url: client.site_url },
      ssoType,
      ssoLogoutType: SsoLogoutType.parse(client.sso_logout_type),
      signIn: ssoSignIn,
      loginForm: !(ssoSignIn && ssoType === 'sso_only'),
    },
    privacyNoticeVersion: client.privacy_notice_version,
    catalogs: { travelUrl: travel?.url ?? null },
    sessionIdleMinutes: sessionPolicy.idleMinutes,
  };
}

/** The logo's bytes and media type: an SVG as stored, a PNG decoded from its base64. */
export async function getClientLogo(
  db: Db,
  clientId: string,
): Promise<{ type: LogoType; body: string | Buffer; version: string } | undefined> {
  const client = await findClient(db, clientId);
  if (!client) return undefined;
  const version = logoVersion(client.logo);
  return client.logo_type === 'image/png'
    ? { type: 'image/png', body: Buffer.from(client.logo, 'base64'), version }
    : { type: 'image/svg+xml', body: client.logo, version };
}

/**
 * With NODE_ENV=production every client's portal address must be https (loopback aside): links in
 * mails start there (decision 081). The clients whose address is refused, with the reason.
 */
export async function portalUrlsRefusedInProduction(db: Db): Promise<Array<{ clientId: string; portalUrl: string; problem: string }>> {
  const refused: Array<{ clientId: string; portalUrl: string; problem: string }> = [];
  for (const { id, portal_url: portalUrl } of await listPortalUrls(db)) {
    const problem = productionOriginProblem(portalUrl);
    if (problem) refused.push({ clientId: id, portalUrl, problem });
  }
  return refused;
}
