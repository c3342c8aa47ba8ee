import type { ClientData } from '@rewards/contract';

/** The client's travel site, from client data (`catalogs.travelUrl`); null hides the travel link. */
export function travelUrlOf(client: ClientData | null): string | null {
  const url = client?.catalogs?.travelUrl;
  // Only web addresses or site paths: a javascript: URL in configuration must never become a link.
  return url && (/^https?:\/\//i.test(url) || /^\/(?!\/)/.test(url)) ? url : null;
}
