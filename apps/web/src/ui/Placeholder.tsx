import type { ReactNode } from 'react';
import './ui.css';

/** A tidy body for screens whose content comes in a later issue. */
export function Placeholder({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="ui-placeholder">
      <h1 tabIndex={-1}>{heading}</h1>
      <div className="ui-placeholder__art" aria-hidden="true" />
      <div className="ui-placeholder__body">{children}</div>
    </div>
  );
}
