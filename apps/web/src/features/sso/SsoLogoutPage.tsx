import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';
import { paths } from '../../routing/paths.ts';
import { ssoLogoutUrl } from './api.ts';
import './sso.css';

/** Leaves the portal for the server's sso/logout, which goes on to the provider and the client site. */
export function goToSsoLogout(assign: (url: string) => void = (url) => window.location.replace(url)): void {
  assign(ssoLogoutUrl);
}

/**
 * /sso-logout (spec section 4, Logout and Session timeout): the portal session is already over;
 * the browser now signs out at the provider and ends at clientSite.url. The links are there for a
 * browser that does not follow.
 */
export default function SsoLogoutPage({ leave = goToSsoLogout }: { leave?: () => void }) {
  const { t } = useI18n();
  const site = useAppState((s) => s.client?.ssoConfig.clientSite);
  const left = useRef(false);

  useEffect(() => {
    if (left.current) return;
    left.current = true;
    leave();
  }, [leave]);

  return (
    <div className="sso-wait" role="status">
      <span className="sso-wait__spinner" aria-hidden="true" />
      <h1 tabIndex={-1}>{t('ssoLogout.heading')}</h1>
      <p>{t('ssoFlow.signingOut')}</p>
      <p className="sso-wait__links">
        {site?.url ? <a href={site.url}>{t('ssoLogout.backToSite', { name: site.name })}</a> : null}
        <Link to={paths.login}>{t('common.backToLogin')}</Link>
      </p>
    </div>
  );
}
