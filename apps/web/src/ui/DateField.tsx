import { useEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { useI18n, type I18n } from '../i18n/I18nContext.tsx';
import { asciiDigits, localDigits, localeDates, partsOf, readDate, type DatePart, type DateParts, type DateProblem } from './date-parts.ts';
import './date-field.css';

export type { DateProblem } from './date-parts.ts';

interface DateFieldProps {
  /** The first part's id (a form focuses it on an error) and the stem of the others'. */
  id: string;
  label: string;
  /** An ISO `YYYY-MM-DD` date, or '' for none. */
  value: string;
  /** Called with the date ('' while there is none) and why the parts typed are not one yet. */
  onChange: (value: string, problem: DateProblem | undefined) => void;
  /** The first and last dates allowed, ISO, inclusive. */
  min?: string | undefined;
  max?: string | undefined;
  /** The form's own message (e.g. a required field left empty), shown instead of the field's. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Ids of other texts describing the field. */
  describedBy?: string | undefined;
  /** 'bday' lets the browser fill a birth date in (bday-day, bday-month, bday-year). */
  autoComplete?: 'bday' | undefined;
  className?: string | undefined;
}

/** A field's problem in the page's language; range limits are written as the locale writes dates. */
export function dateProblemText(i18n: Pick<I18n, 't' | 'formatDate' | 'locale'>, problem: DateProblem): string {
  const { t, formatDate, locale } = i18n;
  const longDate = (iso: string) => formatDate(`${iso}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' });
  switch (problem.kind) {
    case 'incomplete':
      return t('dateField.error.incomplete');
    case 'day':
      return t('dateField.error.day', { last: localDigits(String(problem.last), localeDates(locale.code).digits) });
    case 'year':
      return t('dateField.error.year');
    case 'before':
      return t('dateField.error.before', { date: longDate(problem.limit) });
    case 'after':
      return t('dateField.error.after', { date: longDate(problem.limit) });
  }
}

const sameProblem = (a: DateProblem | undefined, b: DateProblem | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Which parts a message is about, so only those are marked invalid. */
function partsAtFault(parts: DateParts, problem: DateProblem | undefined, formError: boolean): ReadonlySet<DatePart> {
  if (formError && !problem) return new Set<DatePart>(['day', 'month', 'year']);
  if (!problem) return new Set();
  if (problem.kind === 'day') return new Set(['day']);
  if (problem.kind === 'year') return new Set(['year']);
  if (problem.kind === 'incomplete') return new Set((['day', 'month', 'year'] as const).filter((part) => !parts[part]));
  return new Set(['day', 'month', 'year']);
}

/**
 * A date typed as day, month and year in the page's language rather than the browser's (a native
 * date input speaks the browser's): the parts in the locale's order, month names from Intl,
 * digits as the locale writes them (any digits accepted), in the page's direction. The value is
 * an ISO date or ''; partial or impossible input gives a translated message, never a wrong date.
 */
export function DateField({ id, label, value, onChange, min, max, error, hint, describedBy, autoComplete, className }: DateFieldProps) {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { order, months, digits } = localeDates(locale.code);
  const [parts, setParts] = useState<DateParts>(() => partsOf(value));
  // The value these parts were last agreed to stand for: a different one comes from the parent (clearing).
  const [agreed, setAgreed] = useState(value);
  const [touched, setTouched] = useState(false);
  const reading = readDate(parts, min, max);
  if (value !== agreed) {
    setAgreed(value);
    if (value !== reading.value) {
      setParts(partsOf(value));
      setTouched(false);
    }
  }

  // Tells the parent when the date or its problem changes: as typed, and when min or max move.
  const told = useRef<{ value: string; problem: DateProblem | undefined }>({ value, problem: undefined });
  useEffect(() => {
    if (told.current.value === reading.value && sameProblem(told.current.problem, reading.problem)) return;
    told.current = { value: reading.value, problem: reading.problem };
    onChange(reading.value, reading.problem);
  });

  // The field's own message waits until the participant leaves the field or has typed every part.
  const complete = parts.day !== '' && parts.month !== '' && parts.year.length === 4;
  const ownMessage = reading.problem && (touched || complete) ? dateProblemText(i18n, reading.problem) : undefined;
  const message = error ?? ownMessage;
  const atFault = message ? partsAtFault(parts, reading.problem, error !== undefined) : new Set<DatePart>();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const described = [hintId, message ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined;
  const partId = (part: DatePart) => (part === order[0] ? id : `${id}-${part}`);
  const change = (part: DatePart, text: string) => setParts((p) => ({ ...p, [part]: asciiDigits(text) }));
  const leave = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null) && (parts.day || parts.month || parts.year)) setTouched(true);
  };

  const input = (part: 'day' | 'year') => (
    <input
      id={partId(part)}
      type="text"
      inputMode="numeric"
      maxLength={part === 'day' ? 2 : 4}
      autoComplete={autoComplete ? `bday-${part}` : 'off'}
      value={localDigits(parts[part], digits)}
      onChange={(event) => change(part, event.target.value)}
      aria-invalid={atFault.has(part) || undefined}
      aria-describedby={described}
      spellCheck={false}
    />
  );

  return (
    <fieldset className={`date-field${className ? ` ${className}` : ''}`} onBlur={leave}>
      <legend className="date-field__legend">{label}</legend>
      {hint ? (
        <p id={hintId} className="date-field__hint">
          {hint}
        </p>
      ) : null}
      <div className="date-field__parts">
        {order.map((part) => (
          <div key={part} className={`date-field__part date-field__part--${part}`}>
            <label htmlFor={partId(part)}>{t(`dateField.${part}`)}</label>
            {part === 'month' ? (
              <select
                id={partId(part)}
                autoComplete={autoComplete ? 'bday-month' : 'off'}
                value={parts.month}
                onChange={(event) => change('month', event.target.value)}
                aria-invalid={atFault.has('month') || undefined}
                aria-describedby={described}
              >
                <option value="" />
                {months.map((name, index) => (
                  <option key={name} value={String(index + 1)}>
                    {name}
                  </option>
                ))}
              </select>
            ) : (
              input(part)
            )}
          </div>
        ))}
      </div>
      <div aria-live="polite">
        {message ? (
          <p id={errorId} className="date-field__error">
            {message}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
