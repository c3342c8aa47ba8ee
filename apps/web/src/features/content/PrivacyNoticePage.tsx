import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';
import './content.css';

/** Short translated text for now; the client's own text will come from the content service. */
export default function PrivacyNoticePage() {
  const { t, has } = useI18n();
  const clientName = useAppState((s) => s.client?.clientBranding.clientName ?? '');
  const paragraphs = [1, 2, 3, 4].map((n) => `privacy.notice.p${n}`).filter(has);
  return (
    <article className="content">
      <h1 tabIndex={-1}>{t('privacy.notice.heading')}</h1>
      {paragraphs.map((key) => (
        <p key={key}>{t(key, { clientName })}</p>
      ))}
    </article>
  );
}
