import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { t } from '../i18n/t.ts';
import { Dialog } from './Dialog.tsx';
import { ErrorMessage, Field } from './Form.tsx';

/** The part of a `useMutation` result the dialog uses: it sends, and shows the write's own pending and error states. */
export interface WriteMutation<TData, TVariables> {
  mutate: (variables: TVariables, options?: { onSuccess?: (data: TData) => void; onSettled?: () => void }) => void;
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

interface ReasonDialogProps<TData, TVariables> {
  title: string;
  intro?: ReactNode;
  submitLabel: string;
  onClose: () => void;
  /** The write (a mutation from the feature's mutations.ts); its pending state and refusal are the dialog's. */
  mutation: WriteMutation<TData, TVariables>;
  /** What the write is sent with, the reason given; undefined while the form's own fields cannot make one (nothing is sent). */
  variables: (reason: string) => TVariables | undefined;
  /** After the write succeeded (and what it made stale was read again); the dialog then closes, unless this returns KEEP_OPEN. */
  onDone?: (data: TData) => unknown;
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

/** What onDone returns when the dialog should stay open (it shows its own result). */
export const KEEP_OPEN = Symbol('keep open');

/**
 * Every action on a participant or a staff member asks why (3 to 500 characters, kept in the
 * audit trail). The dialog stays open with the server's message when it refuses; it sends
 * nothing twice while a request is under way.
 */
export function ReasonDialog<TData, TVariables>({
  title,
  intro,
  submitLabel,
  onClose,
  mutation,
  variables,
  onDone,
  children,
  ready = true,
  danger,
  reasonLabel,
  reasonHint,
  reasonOptional = false,
}: ReasonDialogProps<TData, TVariables>) {
  const [reason, setReason] = useState('');
  const { mutate, isPending: busy, error, reset } = mutation;
  // A page's mutation may serve the dialog for several rows: each opening starts without the last one's refusal.
  useEffect(() => {
    reset();
  }, [reset]);
  // isPending reaches the page a moment after mutate() (TanStack Query batches its notifications):
  // a second click in between must not send again.
  const sending = useRef(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = variables(reason.trim());
    if (busy || sending.current || sent === undefined) return;
    sending.current = true;
    mutate(sent, {
      onSuccess: (data) => {
        if (onDone?.(data) !== KEEP_OPEN) onClose();
      },
      onSettled: () => {
        sending.current = false;
      },
    });
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} className="stack">
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
