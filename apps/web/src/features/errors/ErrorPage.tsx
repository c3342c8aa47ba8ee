import { Link, useLocation } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { normalizePath, paths } from '../../routing/paths.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import './errors.css';

/** What each SSO failure route says (spec section 8 names the sso.error.* keys). */
const ROUTE_MESSAGES: Readonly<Record<string, string>> = {
  [paths.ssoGatewayLogonFailure]: 'sso.error.gateway',
  [paths.ssoLogonFailure]: 'sso.error.login',
  [paths.ssoFailure]: 'sso.error.userData',
};

/** The error screen of /error and the three SSO failure routes. */
export default function ErrorPage() {
  const { store } = useServices();
  const { t, mediaLabel } = useI18n();
  const { pathname } = useLocation();
  const failed = useAppState((s) => s.status === 'failed');
  const signedIn = useAppState((s) => s.user !== null);
  const errors = useAppState((s) => s.errors);
  const routeMessage = ROUTE_MESSAGES[normalizePath(pathname)];

  return (
    <div className="error-screen">
      <div className="error-screen__mark" aria-hidden="true">
        !
      </div>
      <h1 tabIndex={-1}>{t('error.page.heading')}</h1>
      <p className="error-screen__lead">{t(routeMessage ?? (failed ? 'error.clientData' : 'error.page.body'))}</p>
      {errors.length > 0 ? (
        <div className="error-screen__details">
          {errors.map((error) => (
            <Alert
              key={error.errorId}
              kind="error"
              onDismiss={failed ? undefined : () => store.dismissError(error.errorId)}
              dismissLabel={t('common.dismiss')}
            >
              {errorText(error, t, mediaLabel())}
            </Alert>
          ))}
        </div>
      ) : null}
      <div className="error-screen__actions">
        {failed ? (
          <Button onClick={() => window.location.reload()}>{t('common.tryAgain')}</Button>
        ) : (
          <Link className="ui-button ui-button--primary" to={signedIn ? paths.home : paths.login} replace>
            {t(signedIn ? 'common.backToHome' : 'common.backToLogin')}
          </Link>
        )}
      </div>
    </div>
  );
}
