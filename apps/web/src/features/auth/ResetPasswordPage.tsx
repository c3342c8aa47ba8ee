import { useI18n } from '../../i18n/I18nContext.tsx';
import { Link } from 'react-router';
import { paths } from '../../routing/paths.ts';
import { Placeholder } from '../../ui/Placeholder.tsx';

/** Its screen comes in a later issue; the route, guard and title are in place. */
export default function ResetPasswordPage() {
  const { t } = useI18n();
  return (
    <Placeholder heading={t('resetPassword.heading')}>
      <p>{t('common.comingSoon')}</p>
      <p>
        <Link to={paths.login}>{t('common.backToLogin')}</Link>
      </p>
    </Placeholder>
  );
}
