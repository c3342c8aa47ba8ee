import { isLoopbackHost } from '../modules/sso/provider.ts';

/**
 * NODE_ENV=production (decision 081): an origin people open (the console's, a client's portal
 * address) must be https, so sessions, passwords and links never cross a network in clear; a
 * loopback host (localhost, *.localhost, 127.0.0.0/8, ::1) is on this machine and may stay http.
 * The reason it is refused, or undefined when it may be used.
 */
export function productionOriginProblem(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return undefined;
  return `must be https:// with NODE_ENV=production (http:// only on a loopback host: localhost, *.localhost, 127.0.0.0/8, ::1)`;
}
