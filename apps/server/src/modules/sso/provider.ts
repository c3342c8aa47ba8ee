import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

/** How long a provider's discovered configuration is reused (its keys are refetched by openid-client when unknown). */
export const DISCOVERY_CACHE_MS = 5 * 60_000;

/** A provider that does not answer within this is treated as down. */
const PROVIDER_TIMEOUT_MS = 5_000;

/** 127.0.0.0/8, ::1 and localhost: the only hosts an http:// issuer may have (tests, local set-ups). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/** The issuer as a URL, or the reason it cannot be one (https, or http on loopback only; no query or fragment). */
export function checkIssuer(issuer: string): URL | string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'the issuer is not a URL';
  }
  if (url.search || url.hash || url.username || url.password) return 'the issuer must not carry credentials, a query or a fragment';
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:')
    return 'an http:// issuer is accepted only on a loopback address (127.0.0.0/8, ::1, localhost); use https://';
  return 'the issuer must be an https:// URL';
}

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const timedFetch: oidc.CustomFetch = (url, options) =>
  fetch(url, { ...options, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) } as RequestInit);

/** Reads the provider's discovery document and builds openid-client's configuration for this client. */
export async function discoverProvider(settings: ProviderSettings): Promise<oidc.Configuration> {
  const url = checkIssuer(settings.issuer);
  if (typeof url === 'string') throw new Error(url);
  const config = await oidc.discovery(url, settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
    [oidc.customFetch]: timedFetch,
    ...(url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  return config;
}

interface Cached {
  fingerprint: string;
  at: number;
  config: Promise<oidc.Configuration>;
}

const cache = new Map<string, Cached>();

function fingerprintOf(settings: ProviderSettings): string {
  return createHash('sha256').update(`${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`).digest('hex');
}

/**
 * The client's provider configuration, discovered at most every DISCOVERY_CACHE_MS per process;
 * a changed issuer, client id or secret discovers again at once, and a failure is not kept.
 */
export function providerConfig(clientId: string, settings: ProviderSettings, now = Date.now()): Promise<oidc.Configuration> {
  const fingerprint = fingerprintOf(settings);
  const hit = cache.get(clientId);
  if (hit && hit.fingerprint === fingerprint && now - hit.at < DISCOVERY_CACHE_MS) return hit.config;
  const config = discoverProvider(settings);
  const entry = { fingerprint, at: now, config };
  cache.set(clientId, entry);
  config.catch(() => {
    if (cache.get(clientId) === entry) cache.delete(clientId);
  });
  return config;
}

/** Whether an error means the provider could not be reached (as opposed to refusing). */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  const code = (error as { code?: unknown }).code;
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') return true;
  // fetch failures are TypeErrors, possibly wrapped by openid-client as the cause.
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return true;
  return error.cause !== undefined && isUnreachable(error.cause);
}
