import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { RequestError } from '../../api/client.ts';
import { useApiMutation } from '../../api/queries.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { paths } from '../../routing/paths.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { newPasswordProblems, PasswordRulesPanel } from '../../ui/PasswordRulesPanel.tsx';
import { AuthAlerts, useSuccess } from './AuthAlerts.tsx';
import { PasswordInput } from './fields.tsx';
import { savePassword } from './api.ts';
import { useNoReferrer } from '../../ui/useNoReferrer.ts';
import './auth.css';
import { useFieldProblems } from '../../ui/useFieldProblems.ts';

type Field = 'password' | 'confirm';

/** The guid's shape (contract PasswordGuid), checked here without pulling zod into the page. */
const GUID = /^[A-Za-z0-9_-]{22,128}$/;

/**
 * A savePassword error that means the link itself is dead (expired, used, voided by a newer one,
 * unknown): 404/410, or an account.error.* key naming the link. Anything else (rules, throttling,
 * network) leaves the form in place with the error above it.
 */
export function isDeadLinkError(error: unknown): boolean {
  if (!(error instanceof RequestError)) return false;
  if (error.status === 404 || error.status === 410) return true;
  return /^account\.error\..*(guid|link|expired|used|token)/i.test(error.responseMessage ?? '');
}

/**
 * Reset password (issue 7): the link's guid is read once, kept in state and taken out of the
 * address bar (history, bookmarks, screenshots); the page asks for no Referer while open.
 */
export default function ResetPasswordPage() {
  const { store, api } = useServices();
  const { t } = useI18n();
  const id = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const rules = useAppState((s) => s.client?.passwordRules);
  const success = useSuccess('resetPassword');
  const [guid] = useState(() => new URLSearchParams(location.search).get('passwordGuid') ?? '');
  const [deadLink, setDeadLink] = useState(() => !GUID.test(guid));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { setProblems, problem, edit } = useFieldProblems<Field>();
  const heading = useRef<HTMLHeadingElement>(null);
  useNoReferrer();
  const save = useApiMutation({
    mutationFn: (request: { password: string; passwordGuid: string }) => savePassword(api, request),
    onSuccess: () => store.addSuccess({ successType: 'resetPassword', message: 'resetPassword.form.successMessage' }),
    // A dead link is no message: the page turns into the "ask for a new link" screen instead.
    onError: (error) => {
      if (!isDeadLinkError(error)) store.addError('resetPassword', error);
    },
  });
  const busy = save.isPending;

  useEffect(() => {
    if (location.search) void navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state: location.state });
  }, [location, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !rules) return;
    store.dismissErrors('resetPassword');
    const found = newPasswordProblems(rules, password, confirm, '');
    setProblems(found);
    const first = (['password', 'confirm'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    save.mutate(
      { password, passwordGuid: guid },
      {
        onSuccess: () => {
          setPassword('');
          setConfirm('');
          heading.current?.focus();
        },
        onError: (error) => {
          if (!isDeadLinkError(error)) return;
          setDeadLink(true);
          heading.current?.focus();
        },
      },
    );
  };

  const rulesId = `${id}-rules`;

  let body;
  if (success) {
    body = (
      <div className="auth__done">
        <Alert kind="success">{t(success.message)}</Alert>
        <Link className="ui-button ui-button--primary auth__submit" to={paths.login}>
          {t('account.signIn')}
        </Link>
      </div>
    );
  } else if (deadLink) {
    body = (
      <div className="auth__done">
        <Alert kind="warning">{t('account.resetPassword.deadLink.body')}</Alert>
        <Link className="ui-button ui-button--primary auth__submit" to={paths.forgotPassword}>
          {t('account.resetPassword.deadLink.action')}
        </Link>
      </div>
    );
  } else {
    body = (
      <>
        <p className="auth__intro">{t('account.resetPassword.intro')}</p>
        <form className="auth__form" onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
          <PasswordInput
            id={`${id}-password`}
            label={t('account.field.newPassword')}
            value={password}
            onChange={edit('password', setPassword)}
            error={problem('password')}
            describedBy={rules ? rulesId : undefined}
          />
          {rules ? <PasswordRulesPanel id={rulesId} rules={rules} password={password} username="" /> : null}
          <PasswordInput
            id={`${id}-confirm`}
            label={t('account.field.confirmPassword')}
            value={confirm}
            onChange={edit('confirm', setConfirm)}
            error={problem('confirm')}
          />
          <Button type="submit" className="auth__submit" busy={busy} busyLabel={t('account.saving')}>
            {t('account.resetPassword.submit')}
          </Button>
        </form>
      </>
    );
  }

  return (
    <div className="auth">
      <div className="auth__card">
        <h1 tabIndex={-1} ref={heading}>
          {t(deadLink && !success ? 'account.resetPassword.deadLink.heading' : 'resetPassword.heading')}
        </h1>
        <AuthAlerts errorType="resetPassword" successType="resetPassword" />
        {body}
        {success ? null : (
          <nav className="auth__links" aria-label={t('account.links.label')}>
            <Link to={paths.login}>{t('common.backToLogin')}</Link>
          </nav>
        )}
      </div>
    </div>
  );
}
