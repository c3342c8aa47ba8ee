import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import { clockOptions } from '../../db/read-cache.ts';

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

interface Discovered {
  /** A hash of the settings it was discovered with: a change is seen without keeping them twice. */
  fingerprint: string;
  config: Promise<oidc.Configuration>;
}

/** One entry per client with single sign-on, and one for the staff console: more than any install has. */
export const DISCOVERED_MAX = 1_000;

/**
 * The providers' configurations, so that a sign-in, its callback and a sign-out do not each ask the
 * provider for its discovery document first. Bounded in count (DISCOVERED_MAX, the least recently
 * used out first) and in time (DISCOVERY_CACHE_MS, by the caches' clock, db/read-cache.ts), so a
 * provider's new endpoints show within minutes and a removed client's entry goes. The promise is
 * kept from the start, so concurrent sign-ins share one discovery.
 */
const discovered = new LRUCache<string, Discovered>({ max: DISCOVERED_MAX, ttl: DISCOVERY_CACHE_MS, ...clockOptions });

function fingerprintOf(settings: ProviderSettings): string {
  return createHash('sha256').update(`${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`).digest('hex');
}

/**
 * The provider configuration kept under `key` (a client's id, or the staff console's key),
 * discovered at most every DISCOVERY_CACHE_MS per process; a changed issuer, client id or secret
 * discovers again at once (and replaces the old entry), and a failure is not kept.
 */
export function providerConfig(key: string, settings: ProviderSettings): Promise<oidc.Configuration> {
  const fingerprint = fingerprintOf(settings);
  const hit = discovered.get(key);
  if (hit && hit.fingerprint === fingerprint) return hit.config;
  const entry: Discovered = { fingerprint, config: discoverProvider(settings) };
  discovered.set(key, entry);
  entry.config.catch(() => {
    // Only this attempt's own entry: a newer one (changed settings) stays.
    if (discovered.peek(key) === entry) discovered.delete(key);
  });
  return entry.config;
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
