import { useEffect, useRef, useState } from 'react';
import type { UserData } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useServices } from '../../state/StoreContext.tsx';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { goToCatalogHere } from './openCatalog.ts';
import { MerchandiseArt } from './ShopArt.tsx';
import './shops.css';

/** Session storage: the session whose automatic trip to the catalog already happened. */
export const INACTIVE_REDIRECTED = 'shopsInactiveRedirected';

type Phase = 'redirecting' | 'waiting' | 'down';

function alreadyRedirected(sessionId: string): boolean {
  try {
    return sessionStorage.getItem(INACTIVE_REDIRECTED) === sessionId;
  } catch {
    return false;
  }
}

function rememberRedirect(sessionId: string): void {
  try {
    sessionStorage.setItem(INACTIVE_REDIRECTED, sessionId);
  } catch {
    // Without storage the trip simply happens again on the next visit of home.
  }
}

/**
 * Spec section 4, Inactive with points: instead of home, a notice that the account is inactive,
 * and this window goes to the merchandise catalog to spend what is left. Automatically once per
 * session (coming back with the browser's Back button must not bounce straight out again), then
 * by the button. If the link cannot be had, the catalog-down message replaces the spinner. An
 * administrator acting as the participant is not sent anywhere: catalogs are closed to them.
 */
export function InactiveRedirect({ user }: { user: UserData }) {
  const services = useServices();
  const { t, formatNumber, mediaLabel } = useI18n();
  const auto = !user.adminAsUser && !alreadyRedirected(user.sessionId);
  const [phase, setPhase] = useState<Phase>(auto ? 'redirecting' : 'waiting');
  const started = useRef(false);

  const go = async () => {
    setPhase('redirecting');
    rememberRedirect(user.sessionId);
    const ok = await goToCatalogHere(services, 'merchandise');
    if (!ok) setPhase('down');
  };

  useEffect(() => {
    // Once, also under StrictMode's double effects.
    if (!auto || started.current) return;
    started.current = true;
    void go();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const balance = user.accountBalance ?? 0;
  return (
    <section className="inactive" aria-labelledby="inactive-heading">
      <div className="inactive__art">
        <MerchandiseArt />
      </div>
      <h2 id="inactive-heading" className="inactive__heading">
        {t('shops.inactive.heading')}
      </h2>
      <p className="inactive__text">{t('shops.inactive.text', { balance: formatNumber(balance), mediaLabel: mediaLabel(balance) })}</p>
      {phase === 'redirecting' ? (
        <p className="inactive__status" role="status">
          <Spinner size="sm" />
          {t('shops.inactive.redirecting')}
        </p>
      ) : phase === 'down' ? (
        <div className="inactive__down">
          <Alert kind="warning">{t('shops.catalogDown.message')}</Alert>
        </div>
      ) : (
        <div className="inactive__actions">
          <Button onClick={() => void go()} disabled={user.adminAsUser} aria-describedby={user.adminAsUser ? 'inactive-hint' : undefined}>
            {t('shops.inactive.button')}
          </Button>
          {user.adminAsUser ? (
            <p id="inactive-hint" className="shop-tile__hint">
              {t('shops.launchedAs')}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
