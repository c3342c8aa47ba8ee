import { Link } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';
import { paths } from '../../routing/paths.ts';
import { Placeholder } from '../../ui/Placeholder.tsx';

/** Where SSO clients land after signing out; the full SSO flow comes in a later issue. */
export default function SsoLogoutPage() {
  const { t } = useI18n();
  const site = useAppState((s) => s.client?.ssoConfig.clientSite);
  return (
    <Placeholder heading={t('ssoLogout.heading')}>
      <p>{t('ssoLogout.body')}</p>
      <p>
        {site?.url ? <a href={site.url}>{t('ssoLogout.backToSite', { name: site.name })}</a> : null}{' '}
        <Link to={paths.login}>{t('common.backToLogin')}</Link>
      </p>
    </Placeholder>
  );
}
