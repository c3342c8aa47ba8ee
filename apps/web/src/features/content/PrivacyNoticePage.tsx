import { contentKeys } from '@rewards/contract/content-rules';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { acknowledgePrivacy } from '../../state/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ContentStatus, FallbackNotice, ServerHtml } from './ContentBody.tsx';
import { useContent } from './useContent.ts';
import './content.css';

/**
 * /privacy-notice (signed in): the notice, its version, and the acknowledgement — the same
 * operation as the cookie notice's close button, so both stay in step.
 */
export default function PrivacyNoticePage() {
  const services = useServices();
  const { t, mediaLabel } = useI18n();
  const { state, reload } = useContent(contentKeys.privacyNotice);
  const notice = useAppState((s) => s.user?.privacyNotice);
  const busy = useAppState((s) => s.busy.privacy);
  const errors = useAppState((s) => s.errors);
  const ackErrors = errors.filter((e) => e.errorType === 'privacyNotice');

  return (
    <article className="content">
      <h1 tabIndex={-1}>{t('privacy.notice.heading')}</h1>
      {notice && notice.version > 0 ? <p className="content__meta">{t('privacy.notice.version', { version: notice.version })}</p> : null}
      {state.status === 'ready' ? (
        <>
          <FallbackNotice locale={state.locale} />
          <ServerHtml html={state.html} locale={state.locale} />
        </>
      ) : (
        <ContentStatus state={state} onRetry={reload} />
      )}
      {notice && notice.version > 0 ? (
        <section className="content__ack" aria-live="polite">
          {ackErrors.map((error) => (
            <Alert
              key={error.errorId}
              kind="error"
              onDismiss={() => services.store.dismissError(error.errorId)}
              dismissLabel={t('common.dismiss')}
            >
              {errorText(error, t, mediaLabel())}
            </Alert>
          ))}
          {notice.hasAcknowledged ? (
            <Alert kind="success">{t('privacy.notice.acknowledged')}</Alert>
          ) : (
            <>
              <p>{t('privacy.notice.pending')}</p>
              <Button onClick={() => void acknowledgePrivacy(services)} busy={busy} busyLabel={t('privacy.notice.acknowledging')}>
                {t('privacy.notice.acknowledge')}
              </Button>
            </>
          )}
        </section>
      ) : null}
    </article>
  );
}
