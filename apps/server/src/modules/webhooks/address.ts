import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent (decision 084). A request the portal makes on a client's behalf must
 * not reach inward: this machine, the private network behind it, or the cloud's metadata service.
 * The URL is checked when an endpoint is saved, and its host resolved and checked again right
 * before each send; the connection then goes to the address checked (deliver.ts pins it), so a
 * name that resolves elsewhere a moment later (DNS rebinding) changes nothing.
 */
export interface AddressPolicy {
  /** WEBHOOKS_ALLOW_LOOPBACK: http, and this machine's loopback (a receiver in development or a test). */
  allowLoopback: boolean;
}

/** Never reached, whatever the setting: private, link-local (the metadata service's 169.254.169.254), CGNAT, reserved. */
const inward = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  inward.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  // Unique local (fd00:ec2::254, the metadata service over IPv6, is one), link-local, multicast, documentation.
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  // NAT64 and 6to4 carry an IPv4 address the network may route inward.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  // IPv4-compatible (deprecated) and IPv4-translated forms.
  ['::', 96],
  ['::ffff:0:0:0', 96],
] as const)
  inward.addSubnet(net, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Why an address may not be reached, or undefined if it may. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as its IPv4 address. */
export function addressProblem(address: string, policy: AddressPolicy): string | undefined {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(address, family)) return policy.allowLoopback ? undefined : 'a loopback address';
  if (inward.check(address, family)) return 'a private, link-local or reserved address';
  return undefined;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; problem: string };

const MAX_URL_LENGTH = 2000;

/** The URL's form: absolute, https (or http when loopback is allowed), no credentials, no fragment. No DNS. */
export function checkUrlForm(raw: string, policy: AddressPolicy): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, problem: `longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback))
    return { ok: false, problem: policy.allowLoopback ? 'must be http or https' : 'must be https' };
  if (url.username || url.password) return { ok: false, problem: 'must not hold a user name or password' };
  if (url.hash) return { ok: false, problem: 'must not hold a fragment (#…)' };
  return { ok: true, url };
}

/** A URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedTarget[]>;

/** How long a look-up may take before the host counts as not resolving (the OS resolver's own retries can take far longer). */
const LOOKUP_TIMEOUT_MS = 5_000;

export const systemResolver: Resolver = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The address to connect to for this URL: every address the host resolves to must be allowed
 * (one inward address among outward ones is refused: which one a client library picks is not ours
 * to know), and the first is used.
 */
export async function resolveTarget(
  url: URL,
  policy: AddressPolicy,
  resolver: Resolver = systemResolver,
): Promise<{ ok: true; target: ResolvedTarget } | { ok: false; problem: string }> {
  const host = hostOf(url);
  let addresses: ResolvedTarget[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolver(host);
    } catch (error) {
      return { ok: false, problem: `the host does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
  if (addresses.length === 0) return { ok: false, problem: 'the host does not resolve' };
  for (const a of addresses) {
    const problem = addressProblem(a.address, policy);
    if (problem) return { ok: false, problem: `the host resolves to ${problem}` };
  }
  return { ok: true, target: addresses[0]! };
}
