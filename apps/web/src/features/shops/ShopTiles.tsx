import { useId, useState, type ReactNode } from 'react';
import type { CatalogType, UserData } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { Button } from '../../ui/Button.tsx';
import { useDownCatalogs } from './catalogDown.ts';
import { openCatalogInNewTab } from './openCatalog.ts';
import { ExperiencesArt, MerchandiseArt } from './ShopArt.tsx';
import './shops.css';

const art: Record<CatalogType, () => ReactNode> = { merchandise: MerchandiseArt, experiences: ExperiencesArt };
const buttonKey: Record<CatalogType, string> = { merchandise: 'shops.merchandise.button', experiences: 'shops.experiences.button' };

/** The tiles a user sees (spec section 2): one per offering; an unavailable offering shows merchandise, down. */
function tilesFor(user: UserData): CatalogType[] {
  if (user.rewardsOfferingUnavailable) return ['merchandise'];
  return (['merchandise', 'experiences'] as const).filter((type) => user.rewardsOffering[type]);
}

function ShopTile({ type, user, down, wide }: { type: CatalogType; user: UserData; down: boolean; wide: boolean }) {
  const services = useServices();
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const hintId = useId();
  const Art = art[type];

  const open = async () => {
    if (busy || user.adminAsUser) return;
    setBusy(true);
    try {
      await openCatalogInNewTab(services, type);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      className={`shop-tile shop-tile--${type}${down ? ' shop-tile--down' : ''}${wide ? ' shop-tile--wide' : ''}`}
      aria-labelledby={titleId}
      data-testid={`shop-tile-${type}`}
    >
      <div className="shop-tile__art">
        <Art />
      </div>
      <div className="shop-tile__body">
        <h3 id={titleId} className="shop-tile__title">
          {t(down ? `shops.${type}.downTitle` : `shops.${type}.title`)}
        </h3>
        {down ? (
          <p className="shop-tile__down">
            <span className="shop-tile__down-mark" aria-hidden="true">
              !
            </span>
            {t('shops.catalogDown.message')}
          </p>
        ) : (
          <>
            <p className="shop-tile__text">{t(`shops.${type}.text`)}</p>
            <div className="shop-tile__actions">
              <Button
                className="shop-tile__button"
                onClick={() => void open()}
                disabled={user.adminAsUser}
                busy={busy}
                busyLabel={t('shops.opening')}
                aria-describedby={user.adminAsUser ? hintId : undefined}
              >
                {t(buttonKey[type])}
                <span className="ui-visually-hidden"> {t('shops.newTab')}</span>
                <span className="shop-tile__arrow" aria-hidden="true" />
              </Button>
              {user.adminAsUser ? (
                <p id={hintId} className="shop-tile__hint">
                  {t('shops.launchedAs')}
                </p>
              ) : null}
            </div>
          </>
        )}
      </div>
    </article>
  );
}

/** Home's merchandise and experiences tiles (spec section 2, Home screen). */
export function ShopTiles() {
  const services = useServices();
  const { t, mediaLabel } = useI18n();
  const user = useAppState((s) => s.user);
  const down = useDownCatalogs(services);
  if (!user?.authenticated) return null;
  const types = tilesFor(user);
  if (types.length === 0) return null;
  return (
    <section className="shops" aria-labelledby="shops-heading">
      <h2 id="shops-heading" className="shops__heading">
        {t('shops.heading', { mediaLabel: mediaLabel() })}
      </h2>
      <div className="shops__grid">
        {types.map((type) => (
          <ShopTile
            key={type}
            type={type}
            user={user}
            wide={types.length === 1}
            down={user.rewardsOfferingUnavailable || down.includes(type)}
          />
        ))}
      </div>
    </section>
  );
}
