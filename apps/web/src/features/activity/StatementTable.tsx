import { useId, useMemo } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';
import type { SortColumn, SortState, StatementRow } from './statement.ts';

interface StatementTableProps {
  rows: readonly StatementRow[];
  sort: SortState;
  onSort: (column: SortColumn) => void;
  caption: string;
}

/** The page of rows shown, with sortable column headers that say their order (aria-sort). */
export function StatementTable({ rows, sort, onSort, caption }: StatementTableProps) {
  const { t, locale, formatNumber } = useI18n();
  const captionId = useId();
  const formats = useMemo(() => {
    const make = (options: Intl.DateTimeFormatOptions) => {
      try {
        return new Intl.DateTimeFormat(locale.code, options);
      } catch {
        return new Intl.DateTimeFormat(undefined, options);
      }
    };
    let amount: Intl.NumberFormat;
    try {
      amount = new Intl.NumberFormat(locale.code, { maximumFractionDigits: 0, signDisplay: 'exceptZero' });
    } catch {
      amount = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0, signDisplay: 'exceptZero' });
    }
    return { day: make({ dateStyle: 'medium' }), time: make({ timeStyle: 'short' }), amount };
  }, [locale.code]);

  const header = (column: SortColumn, label: string, className: string) => {
    const sorted = sort.column === column;
    return (
      <th scope="col" role="columnheader" className={className} aria-sort={sorted ? sort.direction : undefined}>
        <button type="button" className="activity__sort" onClick={() => onSort(column)}>
          <span>{label}</span>
          <span aria-hidden="true" className={`activity__sort-icon${sorted ? ' activity__sort-icon--active' : ''}`}>
            {sorted ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
          </span>
        </button>
      </th>
    );
  };

  return (
    <div className="activity__scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      {/* Explicit roles: phones lay the rows out as cards, and some browsers drop table semantics then. */}
      <table className="activity__table" role="table">
        <caption id={captionId} className="ui-visually-hidden">
          {caption}
        </caption>
        <thead role="rowgroup">
          <tr role="row">
            {header('date', t('activity.column.date'), 'activity__col-date')}
            {header('description', t('activity.column.description'), 'activity__col-description')}
            {header('amount', t('activity.column.amount'), 'activity__col-number activity__col-amount')}
            <th scope="col" role="columnheader" className="activity__col-number activity__col-balance">
              <span className="activity__plain-head">{t('activity.column.balance')}</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={row.index} role="row">
              <td role="cell" className="activity__col-date">
                <time dateTime={row.date}>
                  <span className="activity__day">{formats.day.format(row.time)}</span>{' '}
                  <span className="activity__time">{formats.time.format(row.time)}</span>
                </time>
              </td>
              <td role="cell" className="activity__col-description">
                {row.description}
              </td>
              <td
                role="cell"
                className={`activity__col-number activity__col-amount ${row.amount < 0 ? 'activity__debit' : 'activity__credit'}`}
              >
                {formats.amount.format(row.amount)}
              </td>
              <td role="cell" className="activity__col-number activity__col-balance" data-label={t('activity.column.balance')}>
                {formatNumber(row.balance)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
