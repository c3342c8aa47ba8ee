import { useI18n } from '../i18n/I18nContext.tsx';
import { useAppState } from '../state/StoreContext.tsx';
import { PointsSection } from '../features/home/PointsSection.tsx';
import { ShopTiles } from '../features/shops/ShopTiles.tsx';
import { InactiveRedirect } from '../features/shops/InactiveRedirect.tsx';
import { OtsBox } from '../features/ots/OtsBox.tsx';
import '../features/home/home.css';

/** Home composes three features (points, shops, on-the-spot codes); features import no other feature. */
export default function HomePage() {
  const { t } = useI18n();
  const user = useAppState((s) => s.user);
  return (
    <div className="home">
      <h1 tabIndex={-1} className="ui-visually-hidden">
        {t('home.heading')}
      </h1>
      {user?.isInActiveHasPoints ? (
        // Spec section 4, Inactive with points: a notice instead of home, on the way to the catalog.
        <InactiveRedirect user={user} />
      ) : (
        <>
          <PointsSection user={user} />
          <ShopTiles />
          <OtsBox />
        </>
      )}
    </div>
  );
}
