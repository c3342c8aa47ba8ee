import type { ReactNode } from 'react';
import { useI18n } from '../i18n/I18nContext.tsx';
import { Alert } from './Alert.tsx';
import { Button } from './Button.tsx';
import { Spinner } from './Spinner.tsx';
import './ui.css';

/**
 * The one way a server read shows that it is loading, or that it failed with its "try again"
 * (the statement, the content texts, the rules). `message` is the failure's text, which the page
 * words (its error type decides it).
 */
export function ReadStatus(props: { status: 'loading' } | { status: 'failed'; message: ReactNode; onRetry: () => void }) {
  const { t } = useI18n();
  if (props.status === 'loading') {
    return (
      <div className="ui-read-loading" role="status">
        <Spinner />
        <span>{t('common.loading')}</span>
      </div>
    );
  }
  return (
    <div className="ui-read-failed">
      <Alert kind="error">{props.message}</Alert>
      <Button variant="secondary" onClick={props.onRetry}>
        {t('common.tryAgain')}
      </Button>
    </div>
  );
}
