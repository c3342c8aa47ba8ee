import { useMemo } from 'react';
import type { ProgramEvent, ProgramEventLine } from '@rewards/contract/events';
import { formatDate, formatDateTime, formatDay, formatNumber, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { useEvents } from './queries.ts';

const ec = columnHelper<ProgramEvent>();

/** A line's state (decision 098): pending until its release day (the one the participant is told), released, taken back by returns; a return's line, from pending or the balance, and what it could not take back. */
function lineState(line: ProgramEventLine): string[] {
  if (line.kind === 'return')
    return [
      line.pending ? t('events.fromPending') : t('events.fromBalance'),
      ...(line.debtPoints > 0 ? [t('events.lineDebt', { points: formatNumber(line.debtPoints) })] : []),
    ];
  const state: string[] = [];
  if (line.pending && line.releasedAt) state.push(t('events.releasedOn', { date: formatDate(line.releasedAt) }));
  else if (line.pending && line.availableOn) state.push(t('events.pendingAvailableOn', { date: formatDay(line.availableOn) }));
  if (line.reversedPoints > 0) state.push(t('events.reversed', { points: formatNumber(line.reversedPoints) }));
  return state;
}

/** What the event holds now: its pending lines not yet released, less what returns took back (a return: what it took from pending points). */
function stillPending(event: ProgramEvent): number {
  if (event.type === 'return') return event.pendingPoints;
  return event.lines
    .filter((line) => line.pending && line.releasedAt === null)
    .reduce((sum, line) => sum + Math.max(0, line.points - line.reversedPoints), 0);
}

/**
 * What a client's system sent about the participant and what each rule made of it (decision 097),
 * newest first: each line pending until its day or released, what returns took back, and a
 * return's lines with what it could not take back, a debt the program manager sees (decision 098).
 */
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
            {i.row.original.references.originalEventId !== undefined && i.getValue() === 'return' ? (
              <div className="muted">{t('events.returnOf', { id: i.row.original.references.originalEventId })}</div>
            ) : null}
            {i.row.original.returnedAmount !== null ? (
              <div className="muted">{t('events.returned', { amount: i.row.original.returnedAmount })}</div>
            ) : null}
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
                  {lineState(line).map((state) => ` · ${state}`)}
                </li>
              ))}
            </ul>
          ),
      }),
      ec.accessor('points', { header: t('events.points'), cell: (i) => formatNumber(i.getValue()) }),
      ec.accessor(stillPending, {
        id: 'pendingPoints',
        header: t('events.pending'),
        cell: (i) => (i.getValue() === 0 ? '' : formatNumber(i.getValue())),
      }),
      ec.accessor('debtPoints', {
        header: t('events.debt'),
        cell: (i) => (i.getValue() === 0 ? '' : <strong>{formatNumber(i.getValue())}</strong>),
      }),
    ],
    [],
  );
  const rows = useMemo(() => events.data?.pages.flatMap((page) => page.events) ?? [], [events.data]);
  // Over all the participant's events: each page carries it, the latest read is the one shown.
  const owed = events.data?.pages.at(-1)?.owedPoints ?? 0;
  return (
    <QueryView query={events}>
      {() => (
        <>
          {owed > 0 ? <p className="notice">{t('events.owedTotal', { points: formatNumber(owed) })}</p> : null}
          <DataTable
            columns={columns}
            rows={rows}
            caption={t('participant.events')}
            numeric={['points', 'pendingPoints', 'debtPoints']}
            empty={t('events.none')}
          />
          {events.hasNextPage ? (
            <button type="button" className="button" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
              {events.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
            </button>
          ) : null}
        </>
      )}
    </QueryView>
  );
}
