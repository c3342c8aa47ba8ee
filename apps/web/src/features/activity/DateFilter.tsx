import { useId, useRef } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';
import type { DateRange } from './statement.ts';

interface DateFilterProps {
  range: DateRange;
  onChange: (range: DateRange) => void;
}

/** The optional date range (spec section 4): one day, or a first and a last day, inclusive. */
export function DateFilter({ range, onChange }: DateFilterProps) {
  const { t } = useI18n();
  const id = useId();
  const fromRef = useRef<HTMLInputElement>(null);
  return (
    <fieldset className="activity__filter">
      <legend className="activity__legend">{t('activity.filter.legend')}</legend>
      <p id={`${id}-hint`} className="activity__hint">
        {t('activity.filter.hint')}
      </p>
      <div className="activity__dates">
        <div className="activity__field">
          <label htmlFor={`${id}-from`}>{t('activity.filter.from')}</label>
          <input
            ref={fromRef}
            id={`${id}-from`}
            type="date"
            value={range.from}
            max={range.to || undefined}
            aria-describedby={`${id}-hint`}
            onChange={(event) => onChange({ ...range, from: event.target.value })}
          />
        </div>
        <div className="activity__field">
          <label htmlFor={`${id}-to`}>{t('activity.filter.to')}</label>
          <input
            id={`${id}-to`}
            type="date"
            value={range.to}
            min={range.from || undefined}
            aria-describedby={`${id}-hint`}
            onChange={(event) => onChange({ ...range, to: event.target.value })}
          />
        </div>
        {range.from || range.to ? (
          <button type="button" className="ui-button ui-button--link activity__clear" onClick={() => {
              onChange({ from: '', to: '' });
              // The button goes away with the dates; focus stays in the filter.
              fromRef.current?.focus();
            }}>
            {t('activity.filter.clear')}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
