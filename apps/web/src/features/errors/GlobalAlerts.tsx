import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText, type ErrorType, type SuccessType } from '../../state/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import './errors.css';

/** Errors of actions that have no screen of their own: the header's language switch and the like. */
const GLOBAL_ERRORS: readonly ErrorType[] = ['bundle', 'setLocale', 'logout', 'privacyNotice', 'validateSession', 'catalogUrl'];
const GLOBAL_SUCCESSES: readonly SuccessType[] = ['setLocale'];

export function GlobalAlerts() {
  const { store } = useServices();
  const { t, mediaLabel } = useI18n();
  const errors = useAppState((s) => s.errors);
  const successes = useAppState((s) => s.successes);
  const shownErrors = errors.filter((e) => GLOBAL_ERRORS.includes(e.errorType));
  const shownSuccesses = successes.filter((s) => GLOBAL_SUCCESSES.includes(s.successType));
  if (shownErrors.length === 0 && shownSuccesses.length === 0) return null;
  return (
    <div className="global-alerts">
      {shownErrors.map((error) => (
        <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
          {errorText(error, t, mediaLabel())}
        </Alert>
      ))}
      {shownSuccesses.map((success) => (
        <Alert
          key={success.successType}
          kind="success"
          onDismiss={() => store.dismissSuccess(success.successType)}
          dismissLabel={t('common.dismiss')}
        >
          {t(success.message, { mediaLabel: mediaLabel(), ...success.values })}
        </Alert>
      ))}
    </div>
  );
}
