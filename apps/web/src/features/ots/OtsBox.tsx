import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { OtsRedeemRequest } from '@rewards/contract';
import { useLocation } from 'react-router';
import { useApiMutation } from '../../api/queries.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { updateUser } from '../../state/session.ts';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { redeemOtsCode } from './api.ts';
import { otsError } from './ots-error.ts';
import './ots.css';

/**
 * Home's on-the-spot box (spec section 2): a code is typed and redeemed; the balance in the
 * header and on home follows the reply at once. Errors and the success live in the store under
 * type 'ots' (spec section 8), so they are dismissed like every other message.
 */
export function OtsBox() {
  const services = useServices();
  const { store, api } = services;
  const { t, mediaLabel, formatNumber } = useI18n();
  const user = useAppState((s) => s.user);
  const errors = useAppState((s) => s.errors);
  const successes = useAppState((s) => s.successes);
  const location = useLocation();
  const [code, setCode] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const inputId = useId();
  const helpId = useId();

  const dismissMessages = () => {
    store.dismissErrors('ots');
    store.dismissSuccess('ots');
  };

  // Navigation (a modal opening over home included) clears the input and the messages;
  // leaving home dismisses the messages. The input is reset while rendering, as React advises
  // for state that follows a changed value.
  const [seenLocation, setSeenLocation] = useState(location.key);
  if (seenLocation !== location.key) {
    setSeenLocation(location.key);
    setCode('');
  }
  useEffect(() => {
    store.dismissErrors('ots');
    store.dismissSuccess('ots');
  }, [location.key, store]);
  useEffect(
    () => () => {
      store.dismissErrors('ots');
      store.dismissSuccess('ots');
    },
    [store],
  );
  const redeem = useApiMutation({
    mutationFn: (request: OtsRedeemRequest) => redeemOtsCode(api, request),
    // The statement gains the credit; the expiry schedule follows the balance (its key holds it).
    invalidates: [queryKeys.statement.all()],
    onSuccess: (reply) => {
      updateUser(services, { accountBalance: reply.accountBalance });
      store.addSuccess({ successType: 'ots', message: reply.message, values: { value: reply.value } });
    },
    onError: (error) => store.addError('ots', otsError(error)),
  });
  const busy = redeem.isPending;

  if (!user?.participantFeatures.ots) return null;

  const otsErrors = errors.filter((e) => e.errorType === 'ots');
  const success = successes.find((s) => s.successType === 'ots');
  const done = success !== undefined;
  const disabled = code.trim() === '' || done || user.adminAsUser || busy;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    dismissMessages();
    const form = event.currentTarget;
    // These run only while the box is still shown.
    redeem.mutate(
      { code: code.trim(), userName: user.userName },
      {
        onSuccess: () => setCode(''),
        onSettled: (reply) => {
          // The button is disabled under the keyboard's focus (while the code is sent, and for good
          // once it is accepted): give the focus back to the input. A fast reply can settle before
          // the pending state was ever drawn, so the focus may still be on the button here.
          const active = document.activeElement;
          const lost = active === null || active === document.body;
          const onDisabledButton = reply !== undefined && active !== inputRef.current && form.contains(active);
          if (lost || onDisabledButton) inputRef.current?.focus();
        },
      },
    );
  };

  const successText = (message: string, values: Readonly<Record<string, string | number>> | undefined) => {
    const value = Number(values?.value ?? 0);
    return t(message, { ...values, value: formatNumber(value), mediaLabel: mediaLabel(value) });
  };

  const state = busy ? 'busy' : done ? 'done' : 'idle';
  return (
    <section className="ots" aria-labelledby={titleId}>
      <h2 id={titleId} className="ots__title">
        {t('ots.title')}
      </h2>
      <p id={helpId} className="ots__instructions">
        {t('ots.instructions', { mediaLabel: mediaLabel() })}
      </p>
      <form className="ots__form" onSubmit={submit} noValidate>
        <label htmlFor={inputId} className="ots__label">
          {t('ots.code.label')}
        </label>
        <div className="ots__row">
          <input
            ref={inputRef}
            id={inputId}
            className="ots__input"
            type="text"
            name="code"
            value={code}
            placeholder={t('ots.code.placeholder')}
            aria-describedby={helpId}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            // OTS_CODE_MAX_LENGTH of the contract (not imported: the web takes no zod from it).
            maxLength={64}
            onChange={(event) => {
              setCode(event.target.value);
              dismissMessages();
            }}
          />
          <button
            type="submit"
            className={`ui-button ui-button--primary ots__submit ots__submit--${state}`}
            disabled={disabled}
            aria-busy={busy || undefined}
          >
            {busy ? (
              <>
                <Spinner size="sm" />
                <span className="ui-visually-hidden">{t('ots.submit.busy')}</span>
              </>
            ) : done ? (
              <>
                <span aria-hidden="true">✓</span>
                <span>{t('ots.submit.done')}</span>
              </>
            ) : (
              t('ots.submit')
            )}
          </button>
        </div>
      </form>
      {otsErrors.length > 0 || success ? (
        <div className="ots__messages">
          {otsErrors.map((error) => (
            <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
              {errorText(error, t, mediaLabel())}
            </Alert>
          ))}
          {success ? (
            <Alert kind="success" onDismiss={() => store.dismissSuccess('ots')} dismissLabel={t('common.dismiss')}>
              {successText(success.message, success.values)}
            </Alert>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
