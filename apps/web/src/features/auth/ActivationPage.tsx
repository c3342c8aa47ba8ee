import { useId, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Link } from 'react-router';
import { isActivationField, OLDEST_BIRTH_DATE, type ActivationField } from '@rewards/contract/activation-fields';
import type { ActivateRequest } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { activate } from '../../state/session.ts';
import { useApiMutation } from '../../api/queries.ts';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import { Button } from '../../ui/Button.tsx';
import { DateField, dateProblemText, type DateProblem } from '../../ui/DateField.tsx';
import { localToday } from '../../ui/date-parts.ts';
import { newPasswordProblems, PasswordRulesPanel } from '../../ui/PasswordRulesPanel.tsx';
import { useFieldProblems } from '../../ui/useFieldProblems.ts';
import { AuthAlerts } from './AuthAlerts.tsx';
import { PasswordInput, TextField } from './fields.tsx';
import './auth.css';

type InputHints = Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'dir' | 'autoCapitalize'>;

/**
 * How each of the contract's activation fields (the list the server and the operator command
 * know, decision 039) is typed and filled in: keyboard, autofill name, direction. Its label is
 * the translation `account.field.<name>`. The date of birth is a DateField (day, month, year in
 * the page's language, decision 037), not a text input.
 */
const FIELD_HINTS: Readonly<Record<Exclude<ActivationField, 'dateOfBirth'>, InputHints>> = {
  accountNumber: { autoComplete: 'off', dir: 'ltr', autoCapitalize: 'none' },
  userName: { autoComplete: 'username', dir: 'ltr', autoCapitalize: 'none' },
  lastName: { autoComplete: 'family-name' },
  firstName: { autoComplete: 'given-name' },
  emailAddress: { type: 'email', autoComplete: 'email', dir: 'ltr', autoCapitalize: 'none' },
};

/** The translation key of a known field's label. */
export const fieldLabelKey = (name: ActivationField) => `account.field.${name}`;

/**
 * A field the portal does not know (a name the operator command would refuse, so only from data
 * set by other means) is labelled with its name in words ("employeeId" → "Employee id").
 */
export function fieldNameInWords(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A form field: `c-<name>` for an activation field, so that no name clashes with the others. */
type Field = `c-${string}` | 'password' | 'confirm' | 'privacy';
type Problems = Partial<Record<Field, string | DateProblem>>;

/**
 * Activation (issue 7): the participant proves who they are with the client's activation fields,
 * may choose a user id, sets a password that meets the rules and accepts the privacy notice when
 * one is active. Success signs them in (the route guard then takes them to /home).
 */
export default function ActivationPage() {
  const services = useServices();
  const { store } = services;
  const i18n = useI18n();
  const { t } = i18n;
  const id = useId();
  const client = useAppState((s) => s.client);
  const fields = client?.clientBranding.activationFields ?? [];
  const rules = client?.passwordRules;
  const privacyVersion = client?.privacyNoticeVersion ?? 0;
  const [values, setValues] = useState<Record<string, string>>({});
  const [dateProblems, setDateProblems] = useState<Record<string, DateProblem | undefined>>({});
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [accepted, setAccepted] = useState(false);
  const { problems, setProblems, problem, clear, edit } = useFieldProblems<Field, DateProblem>((found) => dateProblemText(i18n, found));
  const activation = useApiMutation({
    // On success the participant is signed in, and the route guard moves them on to /home.
    mutationFn: (request: ActivateRequest) => activate(services, request),
    onError: (error) => store.addError('activation', error),
  });
  // Still busy once it succeeded: the page is leaving.
  const busy = activation.isPending || activation.isSuccess;

  const fieldId = (field: Field | 'username') => `${id}-${field}`;
  const rulesId = `${id}-rules`;

  const validate = (): Problems => {
    const found: Problems = {};
    for (const name of fields) {
      const dateProblem = dateProblems[name];
      if (dateProblem) found[`c-${name}`] = dateProblem;
      else if (!values[name]?.trim()) found[`c-${name}`] = 'account.validation.required';
    }
    // After the activation fields: the first field with a message in this order gets the focus.
    Object.assign(found, newPasswordProblems(rules, password, confirm, username));
    if (privacyVersion > 0 && !accepted) found.privacy = 'account.validation.privacy';
    return found;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    store.dismissErrors('activation');
    const found = validate();
    setProblems(found);
    const first = (Object.keys(found) as Field[])[0];
    if (first) {
      document.getElementById(fieldId(first))?.focus();
      return;
    }
    const request: ActivateRequest = {
      characteristics: Object.fromEntries(fields.map((name) => [name, values[name]?.trim() ?? ''])),
      password,
    };
    if (username.trim()) request.username = username.trim();
    if (privacyVersion > 0) request.acceptedPrivacyNoticeVersion = privacyVersion;
    store.dismissErrors('setLocale', 'bundle');
    activation.mutate(request, {
      onError: () => {
        setPassword('');
        setConfirm('');
      },
    });
  };

  return (
    <div className="auth">
      <div className="auth__card auth__card--wide">
        <h1 tabIndex={-1}>{t('activation.heading')}</h1>
        <p className="auth__intro">{t('account.activation.intro', { clientName: client?.clientBranding.clientName ?? '' })}</p>
        <AuthAlerts errorType="activation" />

        <form className="auth__form" onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
          {fields.length > 0 ? (
            <fieldset className="auth__group">
              <legend>{t('account.activation.identity')}</legend>
              <p className="auth__group-hint">{t('account.activation.identityHint')}</p>
              {fields.map((name) => {
                const field: Field = `c-${name}`;
                if (name === 'dateOfBirth') {
                  return (
                    <DateField
                      key={name}
                      id={fieldId(field)}
                      className="auth__date"
                      label={t(fieldLabelKey(name))}
                      autoComplete="bday"
                      min={OLDEST_BIRTH_DATE}
                      max={localToday()}
                      value={values[name] ?? ''}
                      onChange={(value, dateProblem) => {
                        setValues((v) => (v[name] === value ? v : { ...v, [name]: value }));
                        setDateProblems((p) => ({ ...p, [name]: dateProblem }));
                        clear(field);
                      }}
                      error={problem(field)}
                    />
                  );
                }
                const known = isActivationField(name) && name !== 'dateOfBirth';
                return (
                  <TextField
                    key={name}
                    id={fieldId(field)}
                    label={known ? t(fieldLabelKey(name)) : fieldNameInWords(name)}
                    hint={name === 'accountNumber' ? t('account.field.accountNumber.hint') : undefined}
                    {...(known ? FIELD_HINTS[name] : { autoComplete: 'off' })}
                    value={values[name] ?? ''}
                    onChange={edit(field, (value) => setValues((v) => ({ ...v, [name]: value })))}
                    error={problem(field)}
                  />
                );
              })}
            </fieldset>
          ) : null}

          <fieldset className="auth__group">
            <legend>{t('account.activation.signInDetails')}</legend>
            <TextField
              id={fieldId('username')}
              label={t('account.activation.username')}
              hint={t('account.activation.usernameHint')}
              autoComplete="username"
              autoCapitalize="none"
              maxLength={100}
              value={username}
              onChange={setUsername}
            />
            <PasswordInput
              id={fieldId('password')}
              label={t('account.field.newPassword')}
              value={password}
              onChange={edit('password', setPassword)}
              error={problem('password')}
              describedBy={rules ? rulesId : undefined}
            />
            {rules ? <PasswordRulesPanel id={rulesId} rules={rules} password={password} username={username} /> : null}
            <PasswordInput
              id={fieldId('confirm')}
              label={t('account.field.confirmPassword')}
              value={confirm}
              onChange={edit('confirm', setConfirm)}
              error={problem('confirm')}
            />
          </fieldset>

          {privacyVersion > 0 ? (
            <div className="auth__consent">
              <div className="auth__check">
                <input
                  id={fieldId('privacy')}
                  type="checkbox"
                  checked={accepted}
                  onChange={(e) => {
                    setAccepted(e.target.checked);
                    clear('privacy');
                  }}
                  aria-invalid={problems.privacy ? true : undefined}
                  aria-describedby={problems.privacy ? `${fieldId('privacy')}-error` : undefined}
                />
                <label htmlFor={fieldId('privacy')}>{t('account.activation.privacy')}</label>
              </div>
              <AppLink className="auth__consent-link" to={paths.privacyPolicy}>
                {t('account.activation.privacyLink')}
              </AppLink>
              {problems.privacy ? (
                <p id={`${fieldId('privacy')}-error`} className="field__error">
                  {problem('privacy')}
                </p>
              ) : null}
            </div>
          ) : null}

          <Button type="submit" className="auth__submit" busy={busy} busyLabel={t('account.activation.busy')}>
            {t('account.activation.submit')}
          </Button>
        </form>

        <nav className="auth__links" aria-label={t('account.links.label')}>
          <span>
            {t('account.activation.haveAccount')} <Link to={paths.login}>{t('account.signIn')}</Link>
          </span>
        </nav>
      </div>
    </div>
  );
}
