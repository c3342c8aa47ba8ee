import { useId, useState } from 'react';
import { useLocation } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { PSEUDO_LOCALE_FLAG } from '../../i18n/pseudo.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import './dev-panel.css';

export interface DevRoute {
  path: string;
  access: 'anonymous' | 'signedIn' | 'any';
  modal: boolean;
}

/**
 * Spec section 2's development-only navigation panel: every route one click away, with its
 * access kind. Mounted by app/App.tsx only when `import.meta.env.DEV`, and loaded lazily, so a
 * production build holds none of it.
 */
export default function DevPanel({ routes }: { routes: readonly DevRoute[] }) {
  const { t } = useI18n();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  // The provider has read ?pseudo= into session storage on this page load.
  const pseudo = sessionStorage.getItem(PSEUDO_LOCALE_FLAG) === '1';

  return (
    <nav className="dev-panel" aria-label={t('devPanel.label')}>
      <button
        type="button"
        className="dev-panel__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        {t('devPanel.toggle')}
      </button>
      <div id={listId} className="dev-panel__body" hidden={!open} onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}>
        <ul className="dev-panel__list">
          {routes.map((route) => (
            <li key={route.path}>
              <AppLink to={route.path} aria-current={location.pathname === route.path ? 'page' : undefined}>
                {route.path}
              </AppLink>{' '}
              <span className="dev-panel__kind">
                {t(route.modal ? 'devPanel.modal' : 'devPanel.page')} · {t(`devPanel.access.${route.access}`)}
              </span>
            </li>
          ))}
        </ul>
        {/* A full load: the pseudo-locale is read once per page load. */}
        <a className="dev-panel__pseudo" href={`${location.pathname}?pseudo=${pseudo ? '0' : '1'}`}>
          {t(pseudo ? 'devPanel.pseudo.off' : 'devPanel.pseudo.on')}
        </a>
      </div>
    </nav>
  );
}
