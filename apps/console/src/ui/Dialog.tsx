import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { t } from '../i18n/t.ts';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Wider dialogs for forms with tables (staff roles). */
  wide?: boolean;
}

/**
 * A modal dialog on the browser's own <dialog>: showModal() makes the rest of the page inert
 * (focus stays inside, the screen reader sees only the dialog), Escape closes it, and focus
 * goes back to what opened it. The first field (or button) gets focus.
 */
export function Dialog({ title, onClose, children, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  useLayoutEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    const first = dialog.querySelector<HTMLElement>(
      '[data-autofocus], input:not([type=hidden]), select, textarea, button:not(.dialog__close)',
    );
    first?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault(); // closed by React's state, not the browser, so the two never disagree
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog ref={ref} className={wide ? 'dialog dialog--wide' : 'dialog'} aria-labelledby={titleId}>
      <div className="dialog__head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="dialog__close" onClick={() => close.current()} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}
