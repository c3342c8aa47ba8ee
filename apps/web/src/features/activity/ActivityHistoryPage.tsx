import { useEffect, useMemo, useState, type SetStateAction } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';
import { Button } from '../../ui/Button.tsx';
import { ReadStatus } from '../../ui/ReadStatus.tsx';
import { DateFilter } from './DateFilter.tsx';
import { ExpirySchedule } from './ExpirySchedule.tsx';
import { saveTextFile } from './download.ts';
import { Pager } from './Pager.tsx';
import { PendingReleases } from './PendingReleases.tsx';
import {
  createOrders,
  DEFAULT_SORT,
  nextSort,
  NO_RANGE,
  pageCount,
  pageOf,
  PAGE_SIZE,
  prepareOrders,
  shownRows,
  toRows,
  type DateRange,
  type SortColumn,
  type StatementRow,
} from './statement.ts';
import { StatementTable } from './StatementTable.tsx';
import { useStatement } from './useStatement.ts';
import './activity.css';

/** The activity history modal (spec sections 2 and 4): the participant's own statement. */
export default function ActivityHistoryPage() {
  const { t, locale } = useI18n();
  const user = useAppState((s) => s.user);
  const { state, retry } = useStatement(user?.userName, locale.code);
  // Parsed once per reply: sorting and filtering 10,000 rows then only reorders them.
  const rows = useMemo(() => (state.status === 'ready' ? toRows(state.statement.accountHistoryList) : []), [state]);

  return (
    <div className="activity">
      <h1 tabIndex={-1} className="activity__heading">
        {t('activityHistory.heading')}
      </h1>
      <PendingReleases />
      <ExpirySchedule />
      {state.status === 'loading' ? (
        <ReadStatus status="loading" />
      ) : state.status === 'error' ? (
        <ReadStatus status="failed" message={t(state.messageKey)} onRetry={retry} />
      ) : (
        <Statement accountNumber={state.statement.accountNumber} rows={rows} />
      )}
    </div>
  );
}

function Statement({ accountNumber, rows }: { accountNumber: string; rows: StatementRow[] }) {
  const { t, locale, formatNumber } = useI18n();
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [range, setRange] = useState<DateRange>(NO_RANGE);
  const [page, setPage] = useState(1);

  const collator = useMemo(() => new Intl.Collator(locale.code, { numeric: true, sensitivity: 'base' }), [locale.code]);
  // Sorted once per column; a click then only filters (one pass) and maybe reverses (decision 015).
  const orderOf = useMemo(() => createOrders(rows, collator), [rows, collator]);
  // …and the columns not shown yet are sorted when the browser is idle, before the first click.
  useEffect(() => prepareOrders(orderOf), [orderOf]);
  const shown = useMemo(() => shownRows(orderOf, sort, range), [orderOf, sort, range]);
  const pages = pageCount(shown.length);
  const current = Math.min(page, pages);
  const first = (current - 1) * PAGE_SIZE + 1;

  // Spec section 4: a new filter (and a new order) starts again at page 1.
  const changeRange = (next: SetStateAction<DateRange>) => {
    setRange(next);
    setPage(1);
  };
  const changeSort = (column: SortColumn) => {
    setSort((s) => nextSort(s, column));
    setPage(1);
  };
  const download = async () => {
    // The CSV writer is loaded on first use: most visits never download.
    const { statementCsv, spreadsheetDate } = await import('./csv.ts');
    const csv = statementCsv(shown, {
      date: t('activity.csv.date'),
      description: t('activity.csv.description'),
      amount: t('activity.csv.amount'),
      balance: t('activity.csv.balance'),
    });
    const today = spreadsheetDate(Date.now()).slice(0, 10);
    saveTextFile(`activity-${accountNumber}-${today}.csv`, csv, 'text/csv;charset=utf-8');
  };

  if (rows.length === 0) {
    return (
      <div className="activity__empty">
        <p className="activity__account">{t('activity.account', { accountNumber })}</p>
        <p>{t('activity.empty')}</p>
      </div>
    );
  }

  return (
    <>
      <p className="activity__account">{t('activity.account', { accountNumber })}</p>
      <div className="activity__toolbar">
        <DateFilter range={range} onChange={changeRange} />
        <Button variant="secondary" className="activity__download" onClick={() => void download()} disabled={shown.length === 0}>
          <span aria-hidden="true">⤓</span> {t('activity.download')}
        </Button>
      </div>
      <p className="activity__summary" role="status">
        {shown.length > 0
          ? t('activity.summary', {
              first: formatNumber(first),
              last: formatNumber(Math.min(first + PAGE_SIZE - 1, shown.length)),
              total: formatNumber(shown.length),
            })
          : t('activity.emptyFiltered')}
      </p>
      {shown.length > 0 ? (
        <>
          <StatementTable
            rows={pageOf(shown, current)}
            sort={sort}
            onSort={changeSort}
            caption={t('activity.caption', { accountNumber })}
          />
          {pages > 1 ? <Pager page={current} pages={pages} onPage={setPage} /> : null}
        </>
      ) : null}
    </>
  );
}
