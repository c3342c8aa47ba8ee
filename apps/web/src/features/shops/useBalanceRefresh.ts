import { useEffect, useRef } from 'react';
import { getUser } from '../../api/endpoints.ts';
import { useServices } from '../../state/StoreContext.tsx';
import { updateUser } from '../../state/session.ts';

/** At most one GET user per this many milliseconds, however often the tab comes back. */
export const REFRESH_INTERVAL_MS = 5000;

/**
 * Points are spent in the catalog's own tab. When the participant comes back to the portal tab
 * (visible again, or focused), the user is fetched again so that the balance shows the debit.
 */
export function useBalanceRefresh(): void {
  const services = useServices();
  const last = useRef(Number.NEGATIVE_INFINITY);
  const inFlight = useRef(false);

  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'hidden' || inFlight.current) return;
      if (!services.store.getState().user) return;
      const now = Date.now();
      if (now - last.current < REFRESH_INTERVAL_MS) return;
      last.current = now;
      inFlight.current = true;
      getUser(services.api)
        .then((user) => updateUser(services, user))
        .catch(() => {
          // A background refresh: the balance shown stays as it was (a 401 reloads by itself).
        })
        .finally(() => {
          inFlight.current = false;
        });
    };
    document.addEventListener('visibilitychange', refresh);
    window.addEventListener('focus', refresh);
    return () => {
      document.removeEventListener('visibilitychange', refresh);
      window.removeEventListener('focus', refresh);
    };
  }, [services]);
}
