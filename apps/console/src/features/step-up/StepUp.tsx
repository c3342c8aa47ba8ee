import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { setApiHooks } from '../../api/client.ts';
import { stepUpPasskey, stepUpRecoveryCode, stepUpTotp } from '../../api/session.ts';
import { t } from '../../i18n/t.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorMessage, Field } from '../../ui/Form.tsx';

/**
 * Staff management and large adjustments want a second factor passed within the last five
 * minutes (403 staffFreshSecondFactorRequired). The API client then asks here: this dialog
 * takes a code or a passkey, and the refused request is sent again once it is passed
 * (cancelled: the request fails with its 403, and the form shows it).
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<((passed: boolean) => void) | null>(null);
  const waiting = useRef<Promise<boolean> | null>(null);

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

  const finish = (passed: boolean) => {
    pending?.(passed);
    setPending(null);
  };

  return (
    <>
      {children}
      {pending ? <StepUpDialog onDone={finish} /> : null}
    </>
  );
}

function StepUpDialog({ onDone }: { onDone: (passed: boolean) => void }) {
  const [mode, setMode] = useState<'totp' | 'recoveryCode'>('totp');
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      onDone(true);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => (mode === 'totp' ? stepUpTotp(code) : stepUpRecoveryCode(code)));
  };

  return (
    <Dialog title={t('stepUp.title')} onClose={() => onDone(false)}>
      <form onSubmit={submit} className="stack">
        <p>{t('stepUp.intro')}</p>
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
        <ErrorMessage error={error} />
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('stepUp.confirm')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => void run(stepUpPasskey)}>
            {t('signIn.usePasskey')}
          </button>
          <button type="button" className="button button--link" onClick={() => setMode(mode === 'totp' ? 'recoveryCode' : 'totp')}>
            {mode === 'totp' ? t('signIn.useRecoveryCode') : t('signIn.useCode')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
