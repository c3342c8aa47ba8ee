import type { ReactNode } from 'react';
import './ui.css';

type AlertKind = 'error' | 'success' | 'warning' | 'info';

interface AlertProps {
  kind: AlertKind;
  children: ReactNode;
  /** Shown with a close button when given. */
  onDismiss?: () => void;
  dismissLabel?: string;
}

const icons: Record<AlertKind, string> = { error: '!', success: '✓', warning: '!', info: 'i' };

/** Error red, success green, warning orange (spec section 2). Errors interrupt; others are polite. */
export function Alert({ kind, children, onDismiss, dismissLabel }: AlertProps) {
  return (
    <div className={`ui-alert ui-alert--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <span className="ui-alert__icon" aria-hidden="true">
        {icons[kind]}
      </span>
      <div className="ui-alert__body">{children}</div>
      {onDismiss ? (
        <button type="button" className="ui-alert__close" onClick={onDismiss} aria-label={dismissLabel}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}
