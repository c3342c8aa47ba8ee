import { contentKeys } from '@rewards/contract/content-rules';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { ContentStatus, FallbackNotice, ServerHtml } from './ContentBody.tsx';
import { useContent } from './useContent.ts';
import './content.css';

/** /privacy-shield: the client's privacy policy, open to anonymous visitors too. */
export default function PrivacyPolicyPage() {
  const { t } = useI18n();
  const { state, reload } = useContent(contentKeys.privacyPolicy);
  return (
    <article className="content">
      <h1 tabIndex={-1}>{t('privacy.policy.heading')}</h1>
      {state.status === 'ready' ? (
        <>
          <FallbackNotice locale={state.locale} />
          <ServerHtml html={state.html} locale={state.locale} />
        </>
      ) : (
        <ContentStatus state={state} onRetry={reload} />
      )}
    </article>
  );
}
