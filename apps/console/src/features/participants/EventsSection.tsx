import { useMemo } from 'react';
import type { ProgramEvent, ProgramEventLine } from '@rewards/contract/events';
import { formatDate, formatDateTime, formatNumber, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ErrorMessage } from '../../ui/Form.tsx';
import { useEvents } from './queries.ts';

const ec = columnHelper<ProgramEvent>();

/** What a client's system sent about the participant and what each rule made of it (decision 097), newest first. */
export function EventsSection({ clientId, participantId }: { clientId: string; participantId: string }) {
  const events = useEvents(clientId, participantId);
  const columns = useMemo<Columns<ProgramEvent>>(
    () => [
      ec.accessor('occurredAt', { header: t('events.occurredAt'), cell: (i) => formatDateTime(i.getValue()) }),
      ec.accessor('type', {
        header: t('events.event'),
        cell: (i) => (
          <>
            <code>{i.getValue()}</code> <span className="muted">{i.row.original.id}</span>
          </>
        ),
      }),
      ec.accessor((e) => (e.amount === null ? '' : `${e.amount}${e.currency ? ` ${e.currency}` : ''}`), {
        id: 'amount',
        header: t('events.amount'),
      }),
      ec.accessor('lines', {
        header: t('events.rules'),
        cell: (i) =>
          i.getValue().length === 0 ? (
            <span className="muted">{t('events.noRule')}</span>
          ) : (
            <ul className="event-lines">
              {i.getValue().map((line: ProgramEventLine) => (
                <li key={`${line.ruleId}-${line.version}`}>
                  {t('events.line', { name: line.name, version: line.version, points: formatNumber(line.points) })}
                  {line.pending && line.availableAt ? ` · ${t('events.pendingUntil', { date: formatDate(line.availableAt) })}` : ''}
                </li>
              ))}
            </ul>
          ),
      }),
      ec.accessor('points', { header: t('events.points'), cell: (i) => formatNumber(i.getValue()) }),
      ec.accessor('pendingPoints', { header: t('events.pending'), cell: (i) => (i.getValue() === 0 ? '' : formatNumber(i.getValue())) }),
    ],
    [],
  );
  const rows = useMemo(() => events.data?.pages.flatMap((page) => page.events) ?? [], [events.data]);
  if (events.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (events.isError) return <ErrorMessage error={events.error} />;
  return (
    <>
      <DataTable
        columns={columns}
        rows={rows}
        caption={t('participant.events')}
        numeric={['points', 'pendingPoints']}
        empty={t('events.none')}
      />
      {events.hasNextPage ? (
        <button type="button" className="button" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
          {events.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
        </button>
      ) : null}
    </>
  );
}
