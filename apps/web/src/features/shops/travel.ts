import type { ClientData } from '@rewards/contract';

/**
 * The client's travel site, from client data. The field is optional: it arrives with the
 * catalog work on the server (`catalogs.travelUrl`); without it the travel link is hidden.
 * Typed here as an optional extension so this compiles with or without that contract change.
 */
type WithCatalogs = ClientData & { catalogs?: { travelUrl?: string | null } | null };

export function travelUrlOf(client: ClientData | null): string | null {
  const url = (client as WithCatalogs | null)?.catalogs?.travelUrl;
  // Only web addresses or site paths: a javascript: URL in configuration must never become a link.
  return url && (/^https?:\/\//i.test(url) || /^\/(?!\/)/.test(url)) ? url : null;
}
