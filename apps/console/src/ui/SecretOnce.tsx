import { useId, useState, type ReactNode } from 'react';

export interface SecretOnceProps {
  /** The notice's own class (beside "notice"), for its feature's styling. */
  className: string;
  title: string;
  /** Says it is shown this once. */
  once: string;
  secret: string;
  /** The secret's code element's test id. */
  testId: string;
  labels: { copy: string; stored: string; copied: string; copyFailed: string };
  /** Under the buttons: how the secret is used. */
  note: ReactNode;
  onDone: () => void;
}

/**
 * A secret shown this once (an API key, a webhook signing secret): copy it, then it is gone from
 * the page (the server keeps only a hash or a sealed copy, and never shows it again).
 */
export function SecretOnce({ className, title, once, secret, testId, labels, note, onDone }: SecretOnceProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | ''>('');
  const titleId = useId();
  return (
    <div className={`notice ${className}`} role="alert" aria-labelledby={titleId}>
      <p id={titleId}>
        <strong>{title}</strong>
      </p>
      <p>{once}</p>
      <p>
        <code className="secret" data-testid={testId}>
          {secret}
        </code>
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            navigator.clipboard.writeText(secret).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            );
          }}
        >
          {labels.copy}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {labels.stored}
        </button>
        <span role="status">{copied === 'yes' ? labels.copied : copied === 'failed' ? labels.copyFailed : ''}</span>
      </div>
      <p className="muted">{note}</p>
    </div>
  );
}
