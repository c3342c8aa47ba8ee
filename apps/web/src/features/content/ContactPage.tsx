import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CONTACT_MESSAGE_MAX, CONTACT_TOPICS, type ContactField } from '@rewards/contract/content-rules';
import { useApiMutation } from '../../api/queries.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { emptyContact, validateContact, type ContactValues, type FieldError } from './contactForm.ts';
import { sendContact } from './sendContact.ts';
import './content.css';

const FIELD_ORDER: readonly ContactField[] = ['topic', 'subject', 'message', 'replyEmail', 'phone'];

/**
 * /contact: a message to the client's support desk (POST contactUs). Checked in the browser with
 * the server's own schema; the server checks again and throttles (decision 011). Errors are of
 * type 'contactUs', the success is 'contactUs' with contact.form.successMessage (spec section 8).
 */
export default function ContactPage() {
  const { api, store } = useServices();
  const { t, mediaLabel, formatNumber } = useI18n();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [values, setValues] = useState<ContactValues>(emptyContact);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<ContactField, FieldError>>>({});
  const send = useApiMutation({
    mutationFn: (request: Parameters<typeof sendContact>[1]) => sendContact(api, request),
    onSuccess: () => store.addSuccess({ successType: 'contactUs', message: 'contact.form.successMessage' }),
    onError: (error) => store.addError('contactUs', error),
  });
  const busy = send.isPending;
  const errors = useAppState((s) => s.errors);
  const success = useAppState((s) => s.successes.find((x) => x.successType === 'contactUs'));
  const sendErrors = errors.filter((e) => e.errorType === 'contactUs');

  useEffect(() => {
    // A fresh visit starts with a fresh form.
    store.dismissErrors('contactUs');
    store.dismissSuccess('contactUs');
  }, [store]);

  const fieldId = (field: ContactField) => `${id}-${field}`;
  const errorId = (field: ContactField) => `${id}-${field}-error`;

  const change = (field: ContactField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    // Once shown, an error follows the field as it is corrected.
    if (fieldErrors[field]) {
      const result = validateContact({ ...values, [field]: value });
      setFieldErrors((errs) => ({ ...errs, [field]: result.ok ? undefined : result.errors[field] }));
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const result = validateContact(values);
    if (!result.ok) {
      setFieldErrors(result.errors);
      const first = FIELD_ORDER.find((f) => result.errors[f]);
      if (first) formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(first))}`)?.focus();
      return;
    }
    setFieldErrors({});
    store.dismissErrors('contactUs');
    send.mutate(result.request, {
      onSuccess: () => {
        setValues(emptyContact);
        // The form is replaced by the message: keep focus inside the dialog, at its top.
        requestAnimationFrame(() => headingRef.current?.focus());
      },
    });
  };

  const describedBy = (field: ContactField, ...more: string[]) =>
    [fieldErrors[field] ? errorId(field) : '', ...more].filter(Boolean).join(' ') || undefined;

  const fieldError = (field: ContactField): ReactNode => {
    const error = fieldErrors[field];
    return error ? (
      <p id={errorId(field)} className="content-field__error">
        {t(error.key, error.values)}
      </p>
    ) : null;
  };

  const hasFieldErrors = FIELD_ORDER.some((f) => fieldErrors[f]);
  const messageLength = values.message.trim().length;

  return (
    <article className="content contact">
      <h1 ref={headingRef} tabIndex={-1}>
        {t('contact.heading')}
      </h1>
      {success ? (
        <div className="contact__done">
          <Alert kind="success">{t(success.message, { mediaLabel: mediaLabel() })}</Alert>
          <Button variant="secondary" onClick={() => store.dismissSuccess('contactUs')}>
            {t('contact.form.sendAnother')}
          </Button>
        </div>
      ) : (
        <>
          <p className="content__lead">{t('contact.intro')}</p>
          <div className="contact__alerts">
            {sendErrors.map((error) => (
              <Alert
                key={error.errorId}
                kind="error"
                onDismiss={() => store.dismissError(error.errorId)}
                dismissLabel={t('common.dismiss')}
              >
                {errorText(error, t, mediaLabel())}
              </Alert>
            ))}
            {hasFieldErrors ? <Alert kind="error">{t('contact.form.errorSummary')}</Alert> : null}
          </div>
          <form ref={formRef} className="contact__form" onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
            <div className="content-field">
              <label htmlFor={fieldId('topic')}>{t('contact.form.topic')}</label>
              <select
                id={fieldId('topic')}
                value={values.topic}
                onChange={change('topic')}
                aria-invalid={fieldErrors.topic ? true : undefined}
                aria-describedby={describedBy('topic')}
                required
              >
                <option value="">{t('contact.form.topicChoose')}</option>
                {CONTACT_TOPICS.map((topic) => (
                  <option key={topic} value={topic}>
                    {t(`contact.topic.${topic}`)}
                  </option>
                ))}
              </select>
              {fieldError('topic')}
            </div>

            <div className="content-field">
              <label htmlFor={fieldId('subject')}>{t('contact.form.subject')}</label>
              <input
                id={fieldId('subject')}
                type="text"
                value={values.subject}
                onChange={change('subject')}
                aria-invalid={fieldErrors.subject ? true : undefined}
                aria-describedby={describedBy('subject')}
                autoComplete="off"
                required
              />
              {fieldError('subject')}
            </div>

            <div className="content-field">
              <label htmlFor={fieldId('message')}>{t('contact.form.message')}</label>
              <textarea
                id={fieldId('message')}
                value={values.message}
                onChange={change('message')}
                rows={7}
                aria-invalid={fieldErrors.message ? true : undefined}
                aria-describedby={describedBy('message', `${id}-counter`)}
                required
              />
              <p
                id={`${id}-counter`}
                className={`content-field__hint contact__counter${messageLength > CONTACT_MESSAGE_MAX ? ' contact__counter--over' : ''}`}
              >
                {t('contact.form.messageCounter', { count: formatNumber(messageLength), max: formatNumber(CONTACT_MESSAGE_MAX) })}
              </p>
              {fieldError('message')}
            </div>

            <div className="content-field">
              <label htmlFor={fieldId('replyEmail')}>{t('contact.form.replyEmail')}</label>
              <input
                id={fieldId('replyEmail')}
                type="email"
                dir="ltr"
                value={values.replyEmail}
                onChange={change('replyEmail')}
                aria-invalid={fieldErrors.replyEmail ? true : undefined}
                aria-describedby={describedBy('replyEmail', `${id}-email-hint`)}
                autoComplete="email"
              />
              <p id={`${id}-email-hint`} className="content-field__hint">
                {t('contact.form.replyEmailHint')}
              </p>
              {fieldError('replyEmail')}
            </div>

            <div className="content-field">
              <label htmlFor={fieldId('phone')}>{t('contact.form.phone')}</label>
              <input
                id={fieldId('phone')}
                type="tel"
                dir="ltr"
                value={values.phone}
                onChange={change('phone')}
                aria-invalid={fieldErrors.phone ? true : undefined}
                aria-describedby={describedBy('phone', `${id}-phone-hint`)}
                autoComplete="tel"
              />
              <p id={`${id}-phone-hint`} className="content-field__hint">
                {t('contact.form.phoneHint')}
              </p>
              {fieldError('phone')}
            </div>

            <Button type="submit" className="contact__submit" busy={busy} busyLabel={t('contact.form.sending')}>
              {t('contact.form.submit')}
            </Button>
          </form>
        </>
      )}
    </article>
  );
}
