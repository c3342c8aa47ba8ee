import { useEffect } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText, type ErrorType, type SuccessType } from '../../state/errors.ts';
import { Alert } from '../../ui/Alert.tsx';

/**
 * The errors of one action, translated like the login page's, each dismissible. The page's
 * errors and success are cleared when it closes, so coming back shows a fresh form.
 */
export function AuthAlerts({ errorType, successType }: { errorType: ErrorType; successType?: SuccessType }) {
  const { store } = useServices();
  const { t, mediaLabel } = useI18n();
  const errors = useAppState((s) => s.errors).filter((e) => e.errorType === errorType);

  useEffect(
    () => () => {
      store.dismissErrors(errorType);
      if (successType) store.dismissSuccess(successType);
    },
    [store, errorType, successType],
  );

  if (errors.length === 0) return null;
  return (
    <div className="auth__alerts">
      {errors.map((error) => (
        <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
          {errorText(error, t, mediaLabel())}
        </Alert>
      ))}
    </div>
  );
}

/** The success of an action, if it happened (spec section 8 successes). */
export function useSuccess(successType: SuccessType) {
  return useAppState((s) => s.successes.find((x) => x.successType === successType));
}
