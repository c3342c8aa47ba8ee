import type { Command } from 'commander';
import { SsoLogoutType, SsoType } from '@rewards/contract';
import { loadConfig } from '../../config.ts';
import { checkIssuer } from '../../modules/sso/provider.ts';
import { openSecret, sealSecret, secretKey } from '../../modules/sso/secret-box.ts';
import { DEFAULT_CLAIM, DEFAULT_SCOPES } from '../../modules/sso/settings.ts';
import {
  CLAIM_PATTERN,
  checkDiscovery,
  configureSso,
  disableSso,
  findClientSso,
  normalScopes,
  ssoRedirectUris,
} from '../../modules/sso/operator.ts';
import { action, CliError, requireClient } from '../cli-context.ts';
import { operatorActor } from './audit.ts';

interface SsoOptions {
  client?: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  claim?: string;
  type?: string;
  logoutType?: string;
  siteName?: string;
  siteUrl?: string;
  scopes?: string;
  disable?: boolean;
}

/** Read when --client-secret is not given, so the secret need not appear in shell history or ps. */
const SECRET_ENV = 'REWARDS_SSO_CLIENT_SECRET';

function bounded(flag: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > max) throw new CliError(`${flag} must be 1 to ${max} characters`);
  return trimmed;
}

function siteUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError('--site-url must be an http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError('--site-url must be an http(s) URL');
  return url.href;
}

function scopesOf(value: string): string {
  const scopes = normalScopes(value);
  if (scopes === undefined) throw new CliError('--scopes must be up to 20 scope names separated by spaces');
  return scopes;
}

/** `rewards clients sso`: a client's OpenID provider, sign-in and logout types and site (decision 024). */
export function registerClientsSso(program: Command): void {
  // `clients` is created by clients.ts when it is filled; either way this lands under it.
  const clients = program.commands.find((c) => c.name() === 'clients') ?? program.command('clients').description('client programs');
  const sso = clients
    .command('sso')
    .description(
      "set a client's single sign-on (OpenID Connect); without provider flags it shows the current settings.\n" +
        `The secret may come from ${SECRET_ENV} instead of --client-secret; it is stored encrypted and never printed.`,
    )
    .option('--client <id>', 'the client')
    .option('--issuer <url>', 'the provider (its discovery document is read); http:// only on a loopback address')
    .option('--client-id <id>', "the portal's client id at the provider")
    .option('--client-secret <secret>', `the portal's client secret at the provider (or ${SECRET_ENV})`)
    .option('--claim <name>', `the claim holding the participant's username (default ${DEFAULT_CLAIM})`)
    .option('--type <ssoType>', `${SsoType.options.join(' | ')} (default login_and_sso when turning SSO on)`)
    .option('--logout-type <ssoLogoutType>', `${SsoLogoutType.options.join(' | ')}: sso signs out at the provider too`)
    .option('--site-name <name>', 'the company site, shown as "Sign in with <name>"')
    .option('--site-url <url>', 'where the browser goes after signing out')
    .option('--scopes <scopes>', `scopes to ask for (default "${DEFAULT_SCOPES}")`)
    .option('--disable', 'turn single sign-on off (type login_only, logout type login); the provider settings are kept');

  action<SsoOptions>(sso, async (db, { options, operator }) => {
    const client = await requireClient(db, options.client);
    const existing = await findClientSso(db, client.id);
    const urls = await ssoRedirectUris(db, client.id);

    if (options.disable) {
      if (options.issuer || options.clientId || options.clientSecret || options.type)
        throw new CliError('--disable takes no provider or type flags');
      await disableSso(db, operatorActor(operator), client.id);
      return {
        human: `Single sign-on of ${client.id} is off: participants sign in with the portal's form.`,
        json: { client: client.id, enabled: false, ssoType: 'login_only', ssoLogoutType: 'login' },
      };
    }

    const changing = [
      options.issuer,
      options.clientId,
      options.clientSecret,
      options.claim,
      options.type,
      options.logoutType,
      options.siteName,
      options.siteUrl,
      options.scopes,
    ].some((v) => v !== undefined);
    if (!changing) {
      const enabled = existing?.enabled === 1;
      const facts = {
        client: client.id,
        enabled,
        issuer: existing?.issuer ?? null,
        clientId: existing?.oidc_client_id ?? null,
        claim: existing?.claim ?? null,
        scopes: existing?.scopes ?? null,
        ssoType: client.sso_type,
        ssoLogoutType: client.sso_logout_type,
        clientSite: { name: client.site_name, url: client.site_url },
        redirectUris: urls,
      };
      return {
        human: [
          `Single sign-on of ${client.id}: ${enabled ? 'on' : 'off'} (type ${client.sso_type}, logout type ${client.sso_logout_type})`,
          ...(existing
            ? [`  issuer ${existing.issuer}, client id ${existing.oidc_client_id}, claim ${existing.claim}, scopes "${existing.scopes}"`]
            : []),
          `  site "${client.site_name}" ${client.site_url || '(no URL)'}`,
          `  redirect URI(s) to register at the provider: ${urls.join(' ')}`,
        ].join('\n'),
        json: facts,
      };
    }

    const issuerText = options.issuer ?? existing?.issuer;
    const oidcClientId = options.clientId !== undefined ? bounded('--client-id', options.clientId, 400) : existing?.oidc_client_id;
    const key = await secretKey(loadConfig().catalog.dataDir);
    const givenSecret = options.clientSecret ?? process.env[SECRET_ENV];
    const secret =
      givenSecret !== undefined
        ? bounded('--client-secret', givenSecret, 1000)
        : existing
          ? openSecret(key, client.id, existing.client_secret_enc)
          : undefined;
    if (!issuerText || !oidcClientId || secret === undefined) {
      throw new CliError(`--issuer, --client-id and --client-secret (or ${SECRET_ENV}) are required the first time`);
    }
    const issuer = checkIssuer(issuerText);
    if (typeof issuer === 'string') throw new CliError(`--issuer: ${issuer}`);
    const claim = options.claim ?? existing?.claim ?? DEFAULT_CLAIM;
    if (!CLAIM_PATTERN.test(claim)) throw new CliError('--claim must be a claim name (letters, digits, _ . : -)');
    const scopes = scopesOf(options.scopes ?? existing?.scopes ?? DEFAULT_SCOPES);
    const typeText = options.type ?? (client.sso_type === 'login_only' ? 'login_and_sso' : client.sso_type);
    const ssoType = SsoType.safeParse(typeText);
    if (!ssoType.success) throw new CliError(`--type must be one of ${SsoType.options.join(', ')}`);
    const logoutType = SsoLogoutType.safeParse(options.logoutType ?? client.sso_logout_type);
    if (!logoutType.success) throw new CliError(`--logout-type must be one of ${SsoLogoutType.options.join(', ')}`);
    const siteName = options.siteName !== undefined ? bounded('--site-name', options.siteName, 100) : undefined;
    const siteUrl = options.siteUrl !== undefined ? siteUrlOf(options.siteUrl) : undefined;
    if (ssoType.data !== 'login_only' && !(siteName ?? client.site_name))
      throw new CliError('--site-name is required: the sign-in page shows "Sign in with <name>"');
    if (logoutType.data === 'sso' && !(siteUrl ?? client.site_url))
      throw new CliError('--site-url is required with --logout-type sso: it is where signing out ends');

    const discovered = await checkDiscovery(issuer.href, oidcClientId, secret);
    if ('error' in discovered) throw new CliError(`Cannot read the discovery document of ${issuer.href}: ${discovered.error}`);
    const endSession = discovered.endSession;

    await configureSso(db, operatorActor(operator), client.id, {
      provider: { issuer: issuerText, oidcClientId, clientSecretEnc: sealSecret(key, client.id, secret), scopes, claim },
      ssoType: ssoType.data,
      ssoLogoutType: logoutType.data,
      siteName,
      siteUrl,
      secretChanged: givenSecret !== undefined,
    });
    const site = { name: siteName ?? client.site_name, url: siteUrl ?? client.site_url };
    return {
      human: [
        `Single sign-on of ${client.id} is on: type ${ssoType.data}, logout type ${logoutType.data}, provider ${issuerText} (client id ${oidcClientId}), participant claim ${claim}, scopes "${scopes}".`,
        `  Register the redirect URI(s) at the provider: ${urls.join(' ')}`,
        ...(logoutType.data === 'sso'
          ? [
              `  Post-logout redirect URI to register: ${site.url}${endSession ? '' : ' (the provider publishes no end-session endpoint: signing out goes straight there)'}`,
            ]
          : []),
      ].join('\n'),
      json: {
        client: client.id,
        enabled: true,
        issuer: issuerText,
        clientId: oidcClientId,
        claim,
        scopes,
        ssoType: ssoType.data,
        ssoLogoutType: logoutType.data,
        clientSite: site,
        redirectUris: urls,
        endSessionEndpoint: endSession,
      },
    };
  });
}
