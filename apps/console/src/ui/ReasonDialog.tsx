import { useState, type FormEvent, type ReactNode } from 'react';
import { t } from '../i18n/t.ts';
import { Dialog } from './Dialog.tsx';
import { ErrorMessage, Field } from './Form.tsx';

interface ReasonDialogProps {
  title: string;
  intro?: ReactNode;
  submitLabel: string;
  onClose: () => void;
  /** Sends the change with the reason; resolves when it is done (the dialog then closes). */
  onSubmit: (reason: string) => Promise<unknown>;
  /** The form's own fields, above the reason. */
  children?: ReactNode;
  /** False while the form's own fields are not ready. */
  ready?: boolean;
  danger?: boolean;
  /** The reason field's label and hint, where the form calls it otherwise (the adjustment's internal note). */
  reasonLabel?: string;
  reasonHint?: string;
  /** The reason may be left empty (throwing a preview away): up to 500 characters, sent as "" when empty. */
  reasonOptional?: boolean;
}

/** What onSubmit resolves to when the dialog should stay open (it shows its own result). */
export const KEEP_OPEN = Symbol('keep open');

/**
 * Every action on a participant or a staff member asks why (3 to 500 characters, kept in the
 * audit trail). The dialog stays open with the server's message when it refuses; it sends
 * nothing twice while a request is under way.
 */
export function ReasonDialog({
  title,
  intro,
  submitLabel,
  onClose,
  onSubmit,
  children,
  ready = true,
  danger,
  reasonLabel,
  reasonHint,
  reasonOptional = false,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      if ((await onSubmit(reason.trim())) === KEEP_OPEN) setBusy(false);
      else onClose();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} className="stack">
        {intro ? <div className="dialog__intro">{intro}</div> : null}
        {children}
        <Field
          label={reasonLabel ?? t('action.reason')}
          hint={reasonHint ?? t(reasonOptional ? 'action.reasonOptionalHint' : 'action.reasonHint')}
        >
          {(id, hint) => (
            <textarea
              id={id}
              aria-describedby={hint}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required={!reasonOptional}
              minLength={reasonOptional ? undefined : 3}
              maxLength={500}
              rows={2}
            />
          )}
        </Field>
        <ErrorMessage error={error} />
        <div className="actions">
          <button
            type="submit"
            className={danger ? 'button button--danger' : 'button button--primary'}
            disabled={busy || !ready || (!reasonOptional && reason.trim().length < 3)}
          >
            {busy ? t('common.working') : submitLabel}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
