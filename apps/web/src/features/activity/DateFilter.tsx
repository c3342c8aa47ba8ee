import { useEffect, useId, useState, type SetStateAction } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { DateField } from '../../ui/DateField.tsx';
import type { DateRange } from './statement.ts';

interface DateFilterProps {
  range: DateRange;
  onChange: (range: SetStateAction<DateRange>) => void;
}

/**
 * The optional date range (spec section 4): one day, or a first and a last day, inclusive, typed
 * in the page's language (decision 037). The first day may not be after the last: each field
 * says so and stays out of the range until it fits.
 */
export function DateFilter({ range, onChange }: DateFilterProps) {
  const { t } = useI18n();
  const id = useId();
  // Whether each field holds something typed that is not a date yet (the range then leaves it out).
  const [typing, setTyping] = useState({ from: false, to: false });
  // Clearing starts both fields afresh, parts half typed included, and keeps focus in the filter.
  const [cleared, setCleared] = useState(0);
  useEffect(() => {
    if (cleared > 0) document.getElementById(`${id}-from`)?.focus();
  }, [cleared, id]);

  const change = (end: 'from' | 'to') => (value: string, problem: unknown) => {
    setTyping((s) => (s[end] === (problem !== undefined) ? s : { ...s, [end]: problem !== undefined }));
    onChange((r) => (r[end] === value ? r : { ...r, [end]: value }));
  };

  return (
    <fieldset className="activity__filter">
      <legend className="activity__legend">{t('activity.filter.legend')}</legend>
      <p id={`${id}-hint`} className="activity__hint">
        {t('activity.filter.hint')}
      </p>
      <div className="activity__dates">
        <DateField
          key={`from-${cleared}`}
          id={`${id}-from`}
          className="activity__field"
          label={t('activity.filter.from')}
          value={range.from}
          max={range.to || undefined}
          describedBy={`${id}-hint`}
          onChange={change('from')}
        />
        <DateField
          key={`to-${cleared}`}
          id={`${id}-to`}
          className="activity__field"
          label={t('activity.filter.to')}
          value={range.to}
          min={range.from || undefined}
          describedBy={`${id}-hint`}
          onChange={change('to')}
        />
      </div>
      {range.from || range.to || typing.from || typing.to ? (
        <button
          type="button"
          className="ui-button ui-button--link activity__clear"
          onClick={() => {
            setTyping({ from: false, to: false });
            onChange({ from: '', to: '' });
            setCleared((n) => n + 1);
          }}
        >
          {t('activity.filter.clear')}
        </button>
      ) : null}
    </fieldset>
  );
}
