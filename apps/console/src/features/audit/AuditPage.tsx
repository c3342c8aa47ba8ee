import { useMemo, useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { auditCsvUrl, getAudit, type AuditFilters } from '../../api/participants.ts';
import { t } from '../../i18n/t.ts';
import { Field } from '../../ui/Form.tsx';
import { useClientName, useClients } from '../../api/clients.ts';
import { AuditTable } from '../../ui/AuditTable.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';

const FILTERS = ['staff', 'action', 'clientId', 'participantId', 'from', 'to'] as const;

/**
 * The audit trail: console, command-line and API actions side by side, filtered by who, what,
 * client, participant and dates (the filters live in the address), paged by "Load more", and
 * the same filters as a CSV download.
 */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => {
    const f: AuditFilters = {};
    for (const name of FILTERS) {
      const value = params.get(name)?.trim();
      if (value) f[name] = value;
    }
    return f;
  }, [params]);
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const clients = useClients();
  const clientName = useClientName();
  const audit = useInfiniteQuery({
    queryKey: queryKeys.audit.filtered(filters),
    queryFn: ({ pageParam }) => getAudit(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const rows = useMemo(() => audit.data?.pages.flatMap((page) => page.entries) ?? [], [audit.data]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    for (const name of FILTERS) if (draft[name]?.trim()) next[name] = draft[name]!.trim();
    setParams(next);
  };
  const text = (name: (typeof FILTERS)[number], label: string, type = 'text', hint?: string) => (
    <Field label={label} hint={hint}>
      {(id, described) => (
        <input
          id={id}
          type={type}
          aria-describedby={described}
          value={draft[name] ?? ''}
          onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        />
      )}
    </Field>
  );

  return (
    <div className="stack">
      <h1>{t('audit.title')}</h1>
      <form className="filters" onSubmit={apply} aria-label={t('audit.filters')}>
        {text('staff', t('audit.filter.staff'), 'text', t('audit.filter.prefix'))}
        {text('action', t('audit.filter.action'), 'text', t('audit.filter.prefix'))}
        <Field label={t('audit.filter.client')}>
          {(id) => (
            <select id={id} value={draft.clientId ?? ''} onChange={(e) => setDraft({ ...draft, clientId: e.target.value })}>
              <option value="">{t('audit.filter.allClients')}</option>
              {clients.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('participantId', t('audit.filter.participant'))}
        {text('from', t('audit.filter.from'), 'date')}
        {text('to', t('audit.filter.to'), 'date')}
        <div className="filters__buttons">
          <button type="submit" className="button button--primary">
            {t('audit.apply')}
          </button>
          <a className="button" href={auditCsvUrl(filters)} download>
            {t('audit.csv')}
          </a>
        </div>
      </form>
      <QueryView query={audit}>
        {() => (
          <>
            <AuditTable entries={rows} caption={t('audit.title')} clientName={clientName} />
            {audit.hasNextPage ? (
              <button type="button" className="button" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
                {audit.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
              </button>
            ) : null}
          </>
        )}
      </QueryView>
    </div>
  );
}
