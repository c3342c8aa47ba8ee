import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useApiMutation } from '../../api/queries.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useServices } from '../../state/StoreContext.tsx';
import { paths } from '../../routing/paths.ts';
import { Button } from '../../ui/Button.tsx';
import { AuthAlerts, useSuccess } from './AuthAlerts.tsx';
import { RequestSent } from './RequestSent.tsx';
import { looksLikeEmail, TextField } from './fields.tsx';
import { forgotPassword } from './api.ts';
import './auth.css';
import { useFieldProblems } from '../../ui/useFieldProblems.ts';

type Field = 'userName' | 'email';
type Problems = Partial<Record<Field, string>>;

function validate(userName: string, email: string): Problems {
  const problems: Problems = {};
  if (!userName.trim()) problems.userName = 'account.validation.userName';
  if (!email.trim()) problems.email = 'account.validation.email.empty';
  else if (!looksLikeEmail(email)) problems.email = 'account.validation.email.invalid';
  return problems;
}

/**
 * Forgot password (issue 7): user id and email address in; the same answer whether or not they
 * match, and when they do an email carries a link to /reset-password.
 */
export default function ForgotPasswordPage() {
  const { store, api } = useServices();
  const { t } = useI18n();
  const id = useId();
  const success = useSuccess('forgotPassword');
  const [userName, setUserName] = useState('');
  const [email, setEmail] = useState('');
  const { setProblems, problem, edit } = useFieldProblems<Field>();
  const heading = useRef<HTMLHeadingElement>(null);
  const send = useApiMutation({
    mutationFn: (request: { userName: string; emailAddress: string }) => forgotPassword(api, request),
    onSuccess: () => store.addSuccess({ successType: 'forgotPassword', message: 'forgotPassword.form.successMessage' }),
    onError: (error) => store.addError('forgotPassword', error),
  });
  const busy = send.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    store.dismissErrors('forgotPassword');
    const found = validate(userName, email);
    setProblems(found);
    const first = (['userName', 'email'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    send.mutate({ userName: userName.trim(), emailAddress: email.trim() }, { onSuccess: () => heading.current?.focus() });
  };

  return (
    <div className="auth">
      <div className="auth__card">
        <h1 tabIndex={-1} ref={heading}>
          {t('forgotPassword.heading')}
        </h1>
        <AuthAlerts errorType="forgotPassword" successType="forgotPassword" />
        {success ? (
          <RequestSent message={success.message} notes={['account.forgotPassword.linkValidity', 'account.forgot.checkSpam']} />
        ) : (
          <>
            <p className="auth__intro">{t('account.forgotPassword.intro')}</p>
            <form className="auth__form" onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
              <TextField
                id={`${id}-userName`}
                label={t('account.field.userName')}
                autoComplete="username"
                autoCapitalize="none"
                maxLength={100}
                value={userName}
                onChange={edit('userName', setUserName)}
                error={problem('userName')}
              />
              <TextField
                id={`${id}-email`}
                label={t('account.field.email')}
                type="email"
                autoComplete="email"
                maxLength={254}
                dir="ltr"
                value={email}
                onChange={edit('email', setEmail)}
                error={problem('email')}
              />
              <Button type="submit" className="auth__submit" busy={busy} busyLabel={t('account.sending')}>
                {t('account.forgotPassword.submit')}
              </Button>
            </form>
          </>
        )}
        <nav className="auth__links" aria-label={t('account.links.label')}>
          {success ? null : <Link to={paths.login}>{t('common.backToLogin')}</Link>}
          <Link to={paths.forgotUserId}>{t('login.forgotUserId')}</Link>
        </nav>
      </div>
    </div>
  );
}
