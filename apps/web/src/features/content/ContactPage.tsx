import { useI18n } from '../../i18n/I18nContext.tsx';
import { Placeholder } from '../../ui/Placeholder.tsx';

/** Its screen comes in a later issue; the route, guard and title are in place. */
export default function ContactPage() {
  const { t } = useI18n();
  return (
    <Placeholder heading={t('contact.heading')}>
      <p>{t('common.comingSoon')}</p>
    </Placeholder>
  );
}
