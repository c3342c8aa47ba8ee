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
import { forgotUsername } from './api.ts';
import './auth.css';

/**
 * Forgot user id (issue 7): an email address in, the same answer out whether or not it is known,
 * so the page can tell nobody who is enrolled. The form gives way to the success message.
 */
export default function ForgotUserIdPage() {
  const { store, api } = useServices();
  const { t } = useI18n();
  const id = useId();
  const success = useSuccess('forgotUserId');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const send = useApiMutation({
    mutationFn: (request: { emailAddress: string }) => forgotUsername(api, request),
    onSuccess: () => store.addSuccess({ successType: 'forgotUserId', message: 'forgotUserId.form.successMessage' }),
    onError: (error) => store.addError('forgotUserId', error),
  });
  const busy = send.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    store.dismissErrors('forgotUserId');
    const found = !email.trim()
      ? 'account.validation.email.empty'
      : !looksLikeEmail(email)
        ? 'account.validation.email.invalid'
        : undefined;
    setProblem(found);
    if (found) {
      document.getElementById(`${id}-email`)?.focus();
      return;
    }
    send.mutate({ emailAddress: email.trim() }, { onSuccess: () => heading.current?.focus() });
  };

  return (
    <div className="auth">
      <div className="auth__card">
        <h1 tabIndex={-1} ref={heading}>
          {t('forgotUserId.heading')}
        </h1>
        <AuthAlerts errorType="forgotUserId" successType="forgotUserId" />
        {success ? (
          <RequestSent message={success.message} notes={['account.forgot.checkSpam']} />
        ) : (
          <>
            <p className="auth__intro">{t('account.forgotUserId.intro')}</p>
            <form className="auth__form" onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
              <TextField
                id={`${id}-email`}
                label={t('account.field.email')}
                type="email"
                autoComplete="email"
                maxLength={254}
                dir="ltr"
                value={email}
                onChange={(value) => {
                  setEmail(value);
                  setProblem(undefined);
                }}
                error={problem ? t(problem) : undefined}
              />
              <Button type="submit" className="auth__submit" busy={busy} busyLabel={t('account.sending')}>
                {t('account.forgotUserId.submit')}
              </Button>
            </form>
          </>
        )}
        <nav className="auth__links" aria-label={t('account.links.label')}>
          {success ? null : <Link to={paths.login}>{t('common.backToLogin')}</Link>}
          <Link to={paths.forgotPassword}>{t('login.forgotPassword')}</Link>
        </nav>
      </div>
    </div>
  );
}
