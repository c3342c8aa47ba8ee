import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { login } from '../../state/session.ts';
import { errorText } from '../../state/errors.ts';
import { paths } from '../../routing/paths.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { API_BASE } from '@rewards/contract/paths';
import { ssoPaths } from '@rewards/contract/sso';
import './auth.css';

type Field = 'username' | 'password';

/** Errors this page shows: its own, and those of a single sign-on that came back here (issue 9). */
const LOGIN_ERRORS: readonly string[] = ['login', 'ssoInvalidCredentials', 'ssoAuthenticated', 'ssoNoSessionId', 'ssoFetchProfile'];

export default function LoginPage() {
  const services = useServices();
  const { store } = services;
  const { t, mediaLabel } = useI18n();
  const busy = useAppState((s) => s.busy.login);
  const errors = useAppState((s) => s.errors);
  const preActivation = useAppState((s) => s.preActivationWarning);
  const timedOut = useAppState((s) => s.sessionTimedOut);
  const clientName = useAppState((s) => s.client?.clientBranding.clientName ?? '');
  const sso = useAppState((s) => s.client?.ssoConfig);
  // "Sign in with {clientSite.name}" and whether the form stays (decision 024).
  const ssoSignIn = sso?.signIn === true;
  const showForm = sso?.loginForm !== false;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [missing, setMissing] = useState<ReadonlySet<Field>>(new Set());
  const id = useId();

  const loginErrors = errors.filter((e) => LOGIN_ERRORS.includes(e.errorType));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const empty = new Set<Field>();
    if (!username.trim()) empty.add('username');
    if (!password) empty.add('password');
    setMissing(empty);
    if (empty.size > 0) {
      document.getElementById(`${id}-${empty.has('username') ? 'username' : 'password'}`)?.focus();
      return;
    }
    // On success the route guard moves the now signed-in user on to /home.
    const ok = await login(services, username.trim(), password);
    if (!ok) setPassword('');
  };

  const fieldError = (field: Field) =>
    missing.has(field) ? (
      <p id={`${id}-${field}-error`} className="field__error">
        {t(`login.validation.${field}`)}
      </p>
    ) : null;

  return (
    <div className="auth">
      <div className="auth__card">
        <h1 tabIndex={-1}>{t('login.heading')}</h1>
        <p className="auth__intro">{t('login.intro', { clientName })}</p>

        <div className="auth__alerts">
          {timedOut ? (
            <Alert kind="warning" onDismiss={() => store.setState({ sessionTimedOut: false })} dismissLabel={t('common.dismiss')}>
              {t('login.sessionTimedOut')}
            </Alert>
          ) : null}
          {preActivation ? (
            <Alert kind="warning" onDismiss={() => store.setState({ preActivationWarning: false })} dismissLabel={t('common.dismiss')}>
              {t('login.warning.preActivation')} <Link to={paths.activation}>{t('login.activation.link')}</Link>
            </Alert>
          ) : null}
          {loginErrors.map((error) => (
            <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
              {errorText(error, t, mediaLabel())}
            </Alert>
          ))}
        </div>

        {ssoSignIn ? (
          <div className="auth__sso">
            <a
              className={`ui-button ${showForm ? 'ui-button--secondary' : 'ui-button--primary'} auth__sso-button`}
              href={`${API_BASE}${ssoPaths.login}`}
            >
              {t('ssoFlow.signInWith', { name: sso?.clientSite.name ?? '' })}
            </a>
            {showForm ? (
              <p className="auth__or">
                <span>{t('ssoFlow.or')}</span>
              </p>
            ) : (
              <p className="auth__sso-hint">{t('ssoFlow.onlyHint', { name: sso?.clientSite.name ?? '' })}</p>
            )}
          </div>
        ) : null}

        {showForm ? (
          <form className="auth__form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy || undefined}>
            <div className="field">
              <label htmlFor={`${id}-username`}>{t('login.username')}</label>
              <input
                id={`${id}-username`}
                name="username"
                type="text"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                aria-invalid={missing.has('username') || undefined}
                aria-describedby={missing.has('username') ? `${id}-username-error` : undefined}
              />
              {fieldError('username')}
            </div>
            <div className="field">
              <label htmlFor={`${id}-password`}>{t('login.password')}</label>
              <div className="field__password">
                <input
                  id={`${id}-password`}
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={missing.has('password') || undefined}
                  aria-describedby={missing.has('password') ? `${id}-password-error` : undefined}
                />
                <button
                  type="button"
                  className="field__toggle"
                  aria-pressed={showPassword}
                  aria-controls={`${id}-password`}
                  onClick={() => setShowPassword((v) => !v)}
                >
                  <span className={`field__eye${showPassword ? ' field__eye--off' : ''}`} aria-hidden="true" />
                  {t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                </button>
              </div>
              {fieldError('password')}
            </div>
            <div className="auth__forgot">
              <Link to={paths.forgotUserId}>{t('login.forgotUserId')}</Link>
              <Link to={paths.forgotPassword}>{t('login.forgotPassword')}</Link>
            </div>
            <Button type="submit" className="auth__submit" busy={busy} busyLabel={t('login.submitting')}>
              {t('login.submit')}
            </Button>
          </form>
        ) : null}

        {showForm ? (
          <p className="auth__activation">
            {t('login.activation.prompt')} <Link to={paths.activation}>{t('login.activation.link')}</Link>
          </p>
        ) : null}
      </div>
    </div>
  );
}
