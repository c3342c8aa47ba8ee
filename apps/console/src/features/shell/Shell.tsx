import { NavLink, Outlet } from 'react-router';
import { useSession } from '../../app/session.tsx';
import { t } from '../../i18n/t.ts';

/** The signed-in frame: who, sign out, and the sections the person's roles open. */
export function Shell() {
  const { me, end } = useSession();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('shell.skip')}
      </a>
      <header className="topbar">
        <span className="topbar__brand">{t('app.name')}</span>
        <nav aria-label={t('shell.nav')} className="topbar__nav">
          {/* The day's work first, then what shapes the program, then oversight. */}
          <NavLink to="/participants">{t('nav.participants')}</NavLink>
          <NavLink to="/imports">{t('nav.imports')}</NavLink>
          <NavLink to="/codes">{t('codes.nav')}</NavLink>
          <NavLink to="/programs/earning-rules">{t('nav.programs')}</NavLink>
          <NavLink to="/reports">{t('reports.nav')}</NavLink>
          <NavLink to="/translations">{t('nav.translations')}</NavLink>
          <NavLink to="/content">{t('nav.content')}</NavLink>
          {/* Every role reads its clients' settings; program managers and owners change them (decision 062). */}
          <NavLink to="/settings">{t('nav.settings')}</NavLink>
          <NavLink to="/audit">{t('nav.audit')}</NavLink>
          {me.owner ? <NavLink to="/staff">{t('nav.staff')}</NavLink> : null}
        </nav>
        <div className="topbar__who">
          <span>
            {t('shell.signedInAs', { name: me.name })} <span className="muted">({me.owner ? t('role.owner') : me.email})</span>
          </span>
          {/* Every signed-in person's own password and second factors (decision 070). */}
          <NavLink to="/account" className="topbar__account">
            {t('account.nav')}
          </NavLink>
          <button type="button" className="button button--small" onClick={() => void end('signedOut')}>
            {t('shell.signOut')}
          </button>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
