import type { UserData } from '@rewards/contract';
import { Trans, useI18n } from '../../i18n/I18nContext.tsx';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import { ExpiringLine } from './ExpiringLine.tsx';
import { PendingLine, pendingOf } from './PendingLine.tsx';
import './home.css';

/** The welcome message, one of four variants (spec section 2, Home screen). */
function WelcomeMessage({ user }: { user: UserData }) {
  const { formatNumber, mediaLabel, t } = useI18n();
  const { firstName, accountBalance } = user;

  if (user.accountBalanceUnavailable) {
    return <p className="points__message">{t('home.balanceUnavailable', { firstName, mediaLabel: mediaLabel() })}</p>;
  }
  if (accountBalance === null) {
    return <p className="points__message">{t('home.neverEarned', { firstName, mediaLabel: mediaLabel() })}</p>;
  }
  if (accountBalance <= 0) {
    return (
      <p className="points__message">
        <Trans
          k="home.allSpent"
          values={{
            firstName,
            mediaLabel: mediaLabel(),
            historyLink: <AppLink to={paths.activityHistory}>{t('home.allSpent.historyLink')}</AppLink>,
          }}
        />
      </p>
    );
  }
  return (
    <p className="points__message">
      <Trans
        k="home.welcome"
        values={{
          firstName,
          balance: (
            <AppLink to={paths.activityHistory} className="points__balance">
              {formatNumber(accountBalance)}
            </AppLink>
          ),
          mediaLabel: mediaLabel(accountBalance),
        }}
      />
    </p>
  );
}

/** Hidden until the user is authenticated. */
export function PointsSection({ user }: { user: UserData | null }) {
  const { t, mediaLabel } = useI18n();
  if (!user?.authenticated) return null;
  return (
    <section className="points" aria-labelledby="points-heading">
      <h2 id="points-heading" className="ui-visually-hidden">
        {t('home.points.heading', { mediaLabel: mediaLabel() })}
      </h2>
      <WelcomeMessage user={user} />
      {/* Pending points show whatever the balance is: a newcomer's first points may all be pending. */}
      {user.accountBalanceUnavailable ? null : <PendingLine pending={pendingOf(user)} />}
      {!user.accountBalanceUnavailable && user.accountBalance !== null && user.accountBalance > 0 ? (
        <ExpiringLine balance={user.accountBalance} />
      ) : null}
    </section>
  );
}
