import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ParticipantSearchResult } from '@rewards/contract/participant-search';
import { formatNumber, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { statusName } from '../../ui/labels.ts';
import { useClientName } from '../../api/clients.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { useSearch } from './queries.ts';

const col = columnHelper<ParticipantSearchResult>();

/**
 * Participants: one box (name, username, e-mail or account number, from the start, any case or
 * accent), the results in a dense table that grows by "Load more"; a row opens with Enter or a click.
 * The words searched live in the address (?q=), so Back returns to the same results.
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const navigate = useNavigate();
  const clientName = useClientName();
  const search = useSearch(q);

  // The address follows the box a moment after typing stops.
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => setParams(text.trim() ? { q: text.trim() } : {}, { replace: true }), 250);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  const columns = useMemo<Columns<ParticipantSearchResult>>(
    () => [
      col.accessor((p) => `${p.firstName} ${p.lastName}`, { id: 'name', header: t('participant.name') }),
      col.accessor('username', { header: t('participant.username') }),
      col.accessor('email', { header: t('participant.email') }),
      col.accessor('accountNumber', { header: t('participant.accountNumber') }),
      col.accessor('clientId', { header: t('participant.client'), cell: (info) => clientName(info.getValue()) }),
      col.accessor('status', {
        header: t('participant.status'),
        cell: (info) => <span className={`badge badge--${info.getValue()}`}>{statusName(info.getValue())}</span>,
      }),
      col.accessor('balance', { header: t('participant.balance'), cell: (info) => formatNumber(info.getValue()) }),
    ],
    [clientName],
  );
  const rows = useMemo(() => search.data?.pages.flatMap((page) => page.participants) ?? [], [search.data]);
  const open = (p: ParticipantSearchResult) => navigate(`/participants/${encodeURIComponent(p.clientId)}/${encodeURIComponent(p.id)}`);

  return (
    <div className="stack">
      <h1>{t('search.title')}</h1>
      <form
        role="search"
        className="searchbar"
        onSubmit={(e) => {
          e.preventDefault();
          setParams(text.trim() ? { q: text.trim() } : {}, { replace: true });
        }}
      >
        <label htmlFor="search-q">{t('search.label')}</label>
        <input
          id="search-q"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('search.placeholder')}
          autoComplete="off"
          autoFocus
        />
      </form>
      {q.trim().length < 2 ? (
        <p className="muted">{t('search.hint')}</p>
      ) : (
        <QueryView query={search}>
          {() => (
            <>
              <p className="muted" role="status">
                {search.hasNextPage ? t('search.countMore', { count: rows.length }) : t('search.count', { count: rows.length })}
              </p>
              <DataTable
                columns={columns}
                rows={rows}
                caption={t('search.caption', { q })}
                onOpen={open}
                rowLabel={(p) => t('search.openRow', { name: `${p.firstName} ${p.lastName}`, username: p.username })}
                numeric={['balance']}
                empty={t('search.none')}
              />
              {search.hasNextPage ? (
                <button type="button" className="button" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
                  {search.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
                </button>
              ) : null}
            </>
          )}
        </QueryView>
      )}
    </div>
  );
}
