import { useMemo } from 'react';
import type { ConsoleAuditEntry } from '@rewards/contract/console-participants';
import { formatDateTime, t } from '../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from './DataTable.tsx';

const ac = columnHelper<ConsoleAuditEntry>();

/** A short text of an entry's details (the reason has its own column). */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([key]) => key !== 'reason')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join('; ');
}

/**
 * Audit entries, newest first: when, who (and how), what, about whom, from where, why. On a
 * participant's page every entry is about them: `subject={false}` leaves that column out, which
 * leaves the details room at 768 px.
 */
export function AuditTable({
  entries,
  caption,
  clientName,
  subject = true,
}: {
  entries: ConsoleAuditEntry[];
  caption: string;
  clientName?: (id: string) => string;
  subject?: boolean;
}) {
  const columns = useMemo<Columns<ConsoleAuditEntry>>(
    () => [
      ac.accessor('at', { header: t('audit.at'), cell: (i) => formatDateTime(i.getValue()) }),
      ac.accessor('actor', {
        header: t('audit.actor'),
        cell: (i) => (
          <>
            {i.getValue()} <span className="muted">({i.row.original.actorKind})</span>
          </>
        ),
      }),
      ac.accessor('action', { header: t('audit.action'), cell: (i) => <code>{i.getValue()}</code> }),
      ...(clientName
        ? [ac.accessor('clientId', { header: t('audit.client'), cell: (i) => (i.getValue() ? clientName(i.getValue() ?? '') : '—') })]
        : []),
      ...(subject ? [ac.accessor('subject', { header: t('audit.subject'), cell: (i) => i.getValue() ?? '—' })] : []),
      ac.accessor('reason', { header: t('audit.reason'), cell: (i) => i.getValue() ?? '' }),
      ac.accessor('origin', { header: t('audit.origin'), cell: (i) => i.getValue() ?? '' }),
      ac.accessor((e) => detailsText(e.details), {
        id: 'details',
        header: t('audit.details'),
        cell: (i) => <span className="details">{i.getValue()}</span>,
      }),
    ],
    [clientName, subject],
  );
  return <DataTable columns={columns} rows={entries} caption={caption} empty={t('audit.none')} />;
}
