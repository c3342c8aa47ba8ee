import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { STAFF_STEP_UP_PARAM, type StaffStepUpOutcome } from '@rewards/contract/console';
import { setApiHooks } from '../../api/client.ts';
import { t, type MessageKey } from '../../i18n/t.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { getSignInMethods, providerStepUpHref, stepUpOutcomeOf } from '../../api/staff-oidc.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useStepUp, type StepUpFactor } from './mutations.ts';

const RETURNED_MESSAGE: Record<StaffStepUpOutcome, MessageKey> = {
  passed: 'stepUp.returned.passed',
  noSecondFactor: 'stepUp.returned.noSecondFactor',
  otherPerson: 'stepUp.returned.otherPerson',
  ended: 'stepUp.returned.ended',
  error: 'stepUp.returned.error',
  gateway: 'stepUp.returned.gateway',
  refused: 'stepUp.returned.refused',
};

/**
 * Staff management and large adjustments want a second factor passed within the last five
 * minutes (403 staffFreshSecondFactorRequired). The API client then asks here: this dialog
 * takes a code or a passkey, and the refused request is sent again once it is passed
 * (cancelled: the request fails with its 403, and the form shows it). Where the installation has
 * a staff OpenID provider (decision 068), it also offers to sign in again there: a navigation,
 * so the refused request is not sent again; back on this page (`?stepUp=<outcome>`), the dialog
 * says how it went, and the person presses the button again.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<((passed: boolean) => void) | null>(null);
  const waiting = useRef<Promise<boolean> | null>(null);
  const [params, setParams] = useSearchParams();
  const [returned, setReturned] = useState(() => stepUpOutcomeOf(params));

  useEffect(() => {
    setApiHooks({
      stepUp: () => {
        // Two refused calls at once share one dialog.
        waiting.current ??= new Promise<boolean>((resolve) => setPending(() => resolve)).finally(() => {
          waiting.current = null;
        });
        return waiting.current;
      },
    });
    return () => setApiHooks({ stepUp: null });
  }, []);

  // Said once: a reload or a shared link does not say it again.
  useEffect(() => {
    if (!params.has(STAFF_STEP_UP_PARAM)) return;
    const rest = new URLSearchParams(params);
    rest.delete(STAFF_STEP_UP_PARAM);
    setParams(rest, { replace: true });
  }, [params, setParams]);

  const finish = (passed: boolean) => {
    pending?.(passed);
    setPending(null);
    setReturned(null);
  };

  return (
    <>
      {children}
      {pending ? (
        <StepUpDialog onDone={finish} />
      ) : returned === 'passed' ? (
        <ReturnedDialog onDone={() => setReturned(null)} />
      ) : returned && returned !== 'ended' ? (
        <StepUpDialog onDone={finish} returned={returned} />
      ) : null}
    </>
  );
}

/** The installation's staff provider, if it has one (what the sign-in page's button names). */
function useProvider() {
  const methods = useQuery({ queryKey: queryKeys.signInMethods(), queryFn: getSignInMethods, staleTime: Infinity });
  return methods.data?.provider ?? null;
}

/** This page, to come back to after the provider: the console's path as the browser has it. */
const here = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

function ReturnedDialog({ onDone }: { onDone: () => void }) {
  const provider = useProvider();
  return (
    <Dialog title={t('stepUp.passedTitle')} onClose={onDone}>
      <div className="stack">
        <p className="notice" role="status">
          {t('stepUp.returned.passed', { name: provider?.name ?? t('stepUp.yourOrganisation') })}
        </p>
        <div className="actions">
          <button type="button" className="button button--primary" onClick={onDone} data-autofocus>
            {t('stepUp.continue')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function StepUpDialog({ onDone, returned }: { onDone: (passed: boolean) => void; returned?: StaffStepUpOutcome }) {
  const [mode, setMode] = useState<'totp' | 'recoveryCode'>('totp');
  const [code, setCode] = useState('');
  const stepUp = useStepUp();
  // Once passed the dialog stays busy: it closes as the refused request is sent again.
  const busy = stepUp.isPending || stepUp.isSuccess;
  const provider = useProvider();

  const run = (factor: StepUpFactor) => {
    if (busy) return;
    stepUp.mutate(factor, { onSuccess: () => onDone(true) });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run({ kind: mode, code });
  };

  return (
    <Dialog title={t('stepUp.title')} onClose={() => onDone(false)}>
      <form onSubmit={submit} className="stack">
        {returned ? (
          <p className="error" role="alert">
            {t(RETURNED_MESSAGE[returned], { name: provider?.name ?? t('stepUp.yourOrganisation') })}
          </p>
        ) : (
          <p>{t('stepUp.intro')}</p>
        )}
        <Field label={mode === 'totp' ? t('signIn.code') : t('signIn.recoveryCode')}>
          {(id) => (
            <input
              id={id}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              inputMode={mode === 'totp' ? 'numeric' : 'text'}
              required
            />
          )}
        </Field>
        <ErrorMessage error={stepUp.error} />
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('stepUp.confirm')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => run({ kind: 'passkey' })}>
            {t('signIn.usePasskey')}
          </button>
          <button type="button" className="button button--link" onClick={() => setMode(mode === 'totp' ? 'recoveryCode' : 'totp')}>
            {mode === 'totp' ? t('signIn.useRecoveryCode') : t('signIn.useCode')}
          </button>
        </div>
        {provider ? (
          <div className="stack step-up__provider">
            <a className="button" href={providerStepUpHref(here())}>
              {t('stepUp.provider', { name: provider.name })}
            </a>
            <p className="muted">{t('stepUp.providerNote')}</p>
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}
