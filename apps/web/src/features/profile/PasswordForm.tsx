import { useId, useState, type FormEvent } from 'react';
import type { PasswordRules } from '@rewards/contract';
import { RequestError } from '../../api/client.ts';
import { useApiMutation } from '../../api/queries.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { newPasswordProblems, PasswordRulesPanel } from '../../ui/PasswordRulesPanel.tsx';
import { changePassword } from './api.ts';
import { PasswordField } from './PasswordField.tsx';
import { useFieldProblems } from '../../ui/useFieldProblems.ts';

type Field = 'current' | 'next' | 'confirm';
type Problems = Partial<Record<Field, string>>;

interface PasswordFormProps {
  rules: PasswordRules;
  username: string;
  adminAsUser: boolean;
}

/** Checks what can be checked without the server; the keys of the messages, by field. */
function validate(rules: PasswordRules, username: string, current: string, next: string, confirm: string): Problems {
  const { password: nextProblem, confirm: confirmProblem } = newPasswordProblems(rules, next, confirm, username);
  const problems: Problems = {};
  if (!current) problems.current = 'profile.validation.current';
  if (nextProblem) problems.next = nextProblem;
  else if (next === current) problems.next = 'profile.validation.same';
  if (confirmProblem) problems.confirm = confirmProblem;
  return problems;
}

/** Change password: current, new (with the rules panel) and confirmation (issue 5, section 5). */
export function PasswordForm({ rules, username, adminAsUser }: PasswordFormProps) {
  const services = useServices();
  const { store, api } = services;
  const { t, mediaLabel } = useI18n();
  const id = useId();
  const errors = useAppState((s) => s.errors);
  const successes = useAppState((s) => s.successes);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const { setProblems, problem, edit } = useFieldProblems<Field>();
  const change = useApiMutation({
    mutationFn: (request: { oldPassword: string; newPassword: string }) => changePassword(api, request),
    onSuccess: () => store.addSuccess({ successType: 'changePassword', message: 'profile.page.passwordSuccessMessage' }),
    onError: (error) => store.addError('changePassword', error),
  });
  const busy = change.isPending;

  const fieldId = (field: Field) => `${id}-${field}`;
  const rulesId = `${id}-rules`;
  const shownErrors = errors.filter((e) => e.errorType === 'changePassword');
  const success = successes.find((s) => s.successType === 'changePassword');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || adminAsUser) return;
    store.dismissErrors('changePassword');
    store.dismissSuccess('changePassword');
    const found = validate(rules, username, current, next, confirm);
    setProblems(found);
    const first = (['current', 'next', 'confirm'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(fieldId(first))?.focus();
      return;
    }
    change.mutate(
      { oldPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setConfirm('');
        },
        onError: (error) => {
          if (error instanceof RequestError && error.responseMessage === 'profile.error.wrongPassword') {
            setCurrent('');
            document.getElementById(fieldId('current'))?.focus();
          }
        },
      },
    );
  };

  return (
    <section className="profile__section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('profile.password.heading')}</h2>
      <div className="profile__alerts">
        {adminAsUser ? <Alert kind="info">{t('profile.password.adminAsUser')}</Alert> : null}
        {shownErrors.map((error) => (
          <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
            {errorText(error, t, mediaLabel())}
          </Alert>
        ))}
        {success ? (
          <Alert kind="success" onDismiss={() => store.dismissSuccess('changePassword')} dismissLabel={t('common.dismiss')}>
            {t(success.message)}
          </Alert>
        ) : null}
      </div>
      <form onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
        <fieldset className="profile-password" disabled={adminAsUser}>
          <legend className="ui-visually-hidden">{t('profile.password.heading')}</legend>
          <div className="profile-password__current">
            <PasswordField
              id={fieldId('current')}
              label={t('profile.password.current')}
              value={current}
              onChange={edit('current', setCurrent)}
              autoComplete="current-password"
              error={problem('current')}
            />
          </div>
          <div className="profile-password__new">
            <PasswordField
              id={fieldId('next')}
              label={t('profile.password.new')}
              value={next}
              onChange={edit('next', setNext)}
              autoComplete="new-password"
              error={problem('next')}
              describedBy={rulesId}
            />
          </div>
          <div className="profile-password__rules">
            <PasswordRulesPanel id={rulesId} rules={rules} password={next} username={username} />
          </div>
          <div className="profile-password__confirm">
            <PasswordField
              id={fieldId('confirm')}
              label={t('profile.password.confirm')}
              value={confirm}
              onChange={edit('confirm', setConfirm)}
              autoComplete="new-password"
              error={problem('confirm')}
            />
          </div>
          <div className="profile-password__actions">
            <Button type="submit" busy={busy} busyLabel={t('profile.password.busy')}>
              {t('profile.password.submit')}
            </Button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
