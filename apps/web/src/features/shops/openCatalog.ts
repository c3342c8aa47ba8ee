import type { CatalogType } from '@rewards/contract';
import { RequestError } from '../../api/client.ts';
import type { AppServices } from '../../state/StoreContext.tsx';
import { getCatalogUrl } from './api.ts';
import { markCatalogDown } from './catalogDown.ts';

/** Same-window navigation, behind an object so that tests can stub it (jsdom cannot navigate). */
export const browserWindow = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

function reportFailure(services: AppServices, type: CatalogType, error: unknown, alert: boolean): void {
  // A 401 already started the session-timeout reload; nothing to show.
  if (error instanceof RequestError && error.sessionTimeout) return;
  if (alert) services.store.addError('catalogUrl', error);
  markCatalogDown(services, type);
}

/**
 * Spec section 4, Menu shop links (the tiles do the same). The blank tab is opened right away,
 * inside the click, where popup blockers allow it; the signed link arrives a moment later. The
 * new tab gets no handle on the portal (opener cleared) before it leaves for the catalog.
 * Returns whether the catalog was opened.
 */
export async function openCatalogInNewTab(services: AppServices, type: CatalogType): Promise<boolean> {
  services.store.dismissErrors('catalogUrl');
  const tab = window.open('', '_blank');
  try {
    const { catalogUrl } = await getCatalogUrl(services.api, type);
    if (tab && !tab.closed) {
      tab.opener = null;
      tab.location.href = catalogUrl;
    } else {
      // A blocked popup (or a tab the user closed while waiting): go there in this window.
      browserWindow.assign(catalogUrl);
    }
    return true;
  } catch (error) {
    tab?.close();
    reportFailure(services, type, error, true);
    return false;
  }
}

/**
 * Spec section 4, Inactive with points: this window goes to the catalog. A failure is not added
 * to the global alerts: the caller shows the catalog-down message in its place instead.
 */
export async function goToCatalogHere(services: AppServices, type: CatalogType): Promise<boolean> {
  try {
    const { catalogUrl } = await getCatalogUrl(services.api, type);
    browserWindow.assign(catalogUrl);
    return true;
  } catch (error) {
    reportFailure(services, type, error, false);
    return false;
  }
}
