import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The validation message under the field, if any. */
  error?: string | undefined;
  /** A short help text under the label. */
  hint?: ReactNode;
  /** Ids of other texts describing the field (the rules panel). */
  describedBy?: string | undefined;
}

function describedBy(id: string, error: string | undefined, hint: ReactNode, more?: string) {
  return [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined, more].filter(Boolean).join(' ') || undefined;
}

function FieldMessages({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="field__error">
      {error}
    </p>
  ) : null;
}

type TextFieldProps = FieldProps &
  Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'autoCapitalize' | 'inputMode' | 'maxLength' | 'dir'>;

/** A labelled text input in the look of the login form, its message and hint tied to it. */
export function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  describedBy: more,
  type = 'text',
  maxLength = 200,
  ...rest
}: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        type={type}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, more)}
        spellCheck={false}
        {...rest}
      />
      <FieldMessages id={id} error={error} />
    </div>
  );
}

/** A new-password input with the login form's show/hide toggle, named after its field. */
export function PasswordInput({ id, label, value, onChange, error, hint, describedBy: more }: FieldProps) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      <div className="field__password">
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          maxLength={200}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint, more)}
          spellCheck={false}
        />
        <button
          type="button"
          className="field__toggle"
          aria-controls={id}
          aria-label={t(shown ? 'account.password.hideLabel' : 'account.password.showLabel', { field: label })}
          onClick={() => setShown((v) => !v)}
        >
          <span className={`field__eye${shown ? ' field__eye--off' : ''}`} aria-hidden="true" />
          {t(shown ? 'login.hidePassword' : 'login.showPassword')}
        </button>
      </div>
      <FieldMessages id={id} error={error} />
    </div>
  );
}

/** Whether an address looks like one: the server decides; this only catches typos early. */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
