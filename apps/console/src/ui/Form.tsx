import { useId, type ReactNode } from 'react';
import { errorText } from './error-text.ts';

// The features import the refusal's words from here too; ui/error-text.ts is where they are made.
export { errorText };

/** A label above its control, with an optional hint read with it. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A labelled number input, required, whole numbers unless `step` says otherwise; the value stays
 * the text typed (the form checks it and says why it is refused).
 */
export function NumberField({
  label,
  hint,
  value,
  onChange,
  min,
  max,
  step = 1,
  invalid,
  inputMode,
}: {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  min?: number;
  max?: number;
  step?: number | 'any';
  invalid?: boolean;
  inputMode?: 'numeric' | 'decimal';
}) {
  return (
    <Field label={label} {...(hint === undefined ? {} : { hint })}>
      {(id, describedBy) => (
        <input
          id={id}
          aria-describedby={describedBy}
          type="number"
          min={min}
          max={max}
          step={step}
          inputMode={inputMode}
          value={value}
          aria-invalid={invalid}
          onChange={(e) => onChange(e.target.value)}
          required
        />
      )}
    </Field>
  );
}

/** The server's refusal (or a network failure) in words; announced when it appears. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {errorText(error)}
    </p>
  );
}
