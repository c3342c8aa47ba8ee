import { useEffect, useId, useRef, type ReactNode, type KeyboardEvent } from 'react';
import './ui.css';

interface ModalProps {
  closeLabel: string;
  onClose: () => void;
  leaving?: boolean;
  children: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A dialog over the page: Escape and the close button close it, Tab stays inside, and focus
 * goes back where it was when it closes.
 */
export function Modal({ closeLabel, onClose, leaving = false, children }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const headingId = useId();

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // The page behind is no longer inert by now; give focus back to what opened the dialog.
      if (opener && opener.isConnected && opener !== document.body) opener.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    // The heading may arrive later than the dialog (a lazily loaded body): wait for it briefly.
    let frame = 0;
    let tries = 0;
    const focusHeading = () => {
      const dialog = dialogRef.current;
      if (!dialog) return;
      const heading = dialog.querySelector<HTMLElement>('h1, h2');
      if (heading) {
        // The dialog is named by its first heading, whichever screen renders it.
        if (!heading.id) heading.id = headingId;
        dialog.setAttribute('aria-labelledby', heading.id);
        if (!dialog.contains(document.activeElement) || document.activeElement === dialog) heading.focus({ preventScroll: true });
      } else if (!heading && tries++ < 120) {
        frame = requestAnimationFrame(focusHeading);
      } else if (!heading) {
        dialog.focus();
      }
    };
    focusHeading();
    return () => cancelAnimationFrame(frame);
  }, [headingId]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialogRef.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialogRef.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className={`ui-modal${leaving ? ' ui-modal--leaving' : ''}`}>
      <div className="ui-modal__backdrop" onClick={onClose} aria-hidden="true" />
      <div ref={dialogRef} className="ui-modal__dialog" role="dialog" aria-modal="true" tabIndex={-1} onKeyDown={onKeyDown}>
        <button type="button" className="ui-modal__close" onClick={onClose} aria-label={closeLabel}>
          <span aria-hidden="true">×</span>
        </button>
        <div className="ui-modal__content">{children}</div>
      </div>
    </div>
  );
}
