import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { UserData } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { logout } from '../../state/session.ts';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { LanguageSelector } from './LanguageSelector.tsx';
import './header.css';

function useLogout(): () => Promise<void> {
  const services = useServices();
  const navigate = useNavigate();
  return async () => {
    const target = await logout(services);
    navigate(target, { replace: true });
  };
}

function PointsDisplay({ user }: { user: UserData }) {
  const { t, formatNumber, mediaLabel } = useI18n();
  if (user.accountBalanceUnavailable) return null;
  const balance = user.accountBalance ?? 0;
  return (
    <AppLink to={paths.activityHistory} className="userbar__points">
      {t('header.points', { balance: formatNumber(balance), mediaLabel: mediaLabel(balance) })}
    </AppLink>
  );
}

function UserBar({ user, redeemMenu }: { user: UserData; redeemMenu: ReactNode }) {
  const { t } = useI18n();
  const busy = useAppState((s) => s.busy.logout);
  const doLogout = useLogout();
  return (
    <nav className={`userbar${user.adminAsUser ? ' userbar--launched' : ''}`} aria-label={t('header.userNav')}>
      {user.adminAsUser ? <span className="userbar__launched">{t('header.launchedAs')}</span> : null}
      <span className="userbar__name">{t('header.fullName', { firstName: user.firstName, lastName: user.lastName })}</span>
      <PointsDisplay user={user} />
      {redeemMenu}
      <AppLink to={paths.profile} className="userbar__link">
        {t('header.profile')}
      </AppLink>
      <button
        type="button"
        className="userbar__link userbar__logout"
        onClick={() => void doLogout()}
        disabled={busy}
        aria-busy={busy || undefined}
      >
        {busy ? <Spinner size="sm" /> : null}
        {t('header.logout')}
      </button>
    </nav>
  );
}

/** Launched-as mode: an administrator acting as this participant (spec section 2, Header). */
export function AdminBanner() {
  const { t } = useI18n();
  const user = useAppState((s) => s.user);
  const doLogout = useLogout();
  if (!user?.adminAsUser) return null;
  return (
    <div className="admin-banner" role="region" aria-label={t('header.adminBanner.label')}>
      <span>{t('header.adminBanner.text', { firstName: user.firstName, lastName: user.lastName })}</span>
      <button type="button" className="admin-banner__logout" onClick={() => void doLogout()}>
        {t('header.adminBanner.logout')}
      </button>
    </div>
  );
}

/** `redeemMenu`: the shops' menu, placed by the app (a feature imports no other feature). */
export function Header({ redeemMenu }: { redeemMenu?: ReactNode }) {
  const user = useAppState((s) => s.user);
  const branding = useAppState((s) => s.client?.clientBranding);
  return (
    <header className={`header${user ? ' header--signed-in' : ''}`}>
      <div className="header__bar">
        {branding ? (
          <AppLink to={user ? paths.home : paths.login} className="header__brand">
            {/* A size before the logo arrives (its box is then fixed by CSS; any client's logo fits it). */}
            <img className="header__logo" src={branding.clientLogo} alt={branding.clientName} width={192} height={40} />
          </AppLink>
        ) : null}
        <div className="header__tools">
          <LanguageSelector />
        </div>
      </div>
      {user ? (
        <div className="header__user">
          <UserBar user={user} redeemMenu={redeemMenu} />
        </div>
      ) : null}
    </header>
  );
}
