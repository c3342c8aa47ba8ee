import { useState } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';

interface PasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  /** The validation message under the field, if any. */
  error?: string | undefined;
  /** Ids of other texts describing the field (the rules panel). */
  describedBy?: string | undefined;
}

/**
 * A password input with a show/hide toggle named after its field ("Show Current password"); the
 * name says what a press will do, so no aria-pressed on top of it.
 */
export function PasswordField({ id, label, value, onChange, autoComplete, error, describedBy }: PasswordFieldProps) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  const errorId = `${id}-error`;
  const described = [error ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className="profile-field">
      <label htmlFor={id}>{label}</label>
      <div className="profile-field__password">
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          maxLength={200}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          spellCheck={false}
        />
        <button
          type="button"
          className="profile-field__toggle"
          aria-controls={id}
          aria-label={t(shown ? 'profile.password.hideLabel' : 'profile.password.showLabel', { field: label })}
          onClick={() => setShown((v) => !v)}
        >
          {t(shown ? 'profile.password.hide' : 'profile.password.show')}
        </button>
      </div>
      {error ? (
        <p id={errorId} className="profile-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
