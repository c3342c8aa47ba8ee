import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { ConsoleClient } from '@rewards/contract/console';
import { MAX_BATCH_COUNT, MAX_BATCH_NAME, MAX_CODE_VALUE, type BatchCode, type BatchSummary } from '@rewards/contract/console-codes';
import { getBatch, getBatches } from '../../api/codes.ts';
import { useClients } from '../../api/clients.ts';
import { useSession } from '../../app/session.tsx';
import { formatDateTime, formatNumber, t, type MessageKey } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ErrorMessage, Field, NumberField } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { downloadText } from '../../ui/download.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useGenerateBatch, useVoidCodes } from './mutations.ts';
import { ClientPicker } from '../../ui/ClientPicker.tsx';

/**
 * Code batches (issue 20 §1, decision 063): a client's on-the-spot codes by print run, counted
 * by state; program managers and owners generate a batch (its codes arrive once, as a CSV file,
 * and are never shown) and void a code or what is left of a batch, with a reason. Others read.
 */
export default function CodesPage() {
  const { me } = useSession();
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  const client = clients.data.find((c) => c.id === params.get('client')) ?? clients.data[0];
  return (
    <div className="stack">
      <h1>{t('codes.title')}</h1>
      {client === undefined ? (
        <p>{t('error.forbidden')}</p>
      ) : (
        <>
          <ClientPicker label={t('codes.client')} clients={clients.data} chosen={client} onChoose={(id) => setParams({ client: id })} row />
          <Batches key={client.id} client={client} canChange={me.owner || client.role === 'program_manager'} />
        </>
      )}
    </div>
  );
}

// A code is good through the end of its last day in UTC (as the command takes --expires): shown as that day.
const utcDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
const expiryText = (iso: string | null) => (iso ? utcDay.format(new Date(iso)) : t('codes.never'));

const summaryColumns = (): Columns<BatchSummary> => {
  const col = columnHelper<BatchSummary>();
  return [
    col.accessor('name', { header: t('codes.col.name'), cell: (c) => c.getValue() ?? t('codes.noBatch') }),
    col.accessor('createdAt', { header: t('codes.col.created'), cell: (c) => formatDateTime(c.getValue()) }),
    col.accessor('value', {
      id: 'value',
      header: t('codes.col.value'),
      cell: (c) => (c.getValue() === null ? t('codes.mixed') : formatNumber(c.getValue()!)),
    }),
    col.accessor('expiresAt', {
      header: t('codes.col.expires'),
      cell: (c) => expiryText(c.getValue()),
    }),
    col.accessor('total', { id: 'total', header: t('codes.col.generated'), cell: (c) => formatNumber(c.getValue()) }),
    col.accessor('unused', { id: 'unused', header: t('codes.state.unused'), cell: (c) => formatNumber(c.getValue()) }),
    col.accessor('redeemed', { id: 'redeemed', header: t('codes.state.redeemed'), cell: (c) => formatNumber(c.getValue()) }),
    col.accessor('expired', { id: 'expired', header: t('codes.state.expired'), cell: (c) => formatNumber(c.getValue()) }),
    col.accessor('void', { id: 'void', header: t('codes.state.void'), cell: (c) => formatNumber(c.getValue()) }),
  ];
};
const COUNTS = ['value', 'total', 'unused', 'redeemed', 'expired', 'void'] as const;

function Batches({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const batches = useQuery({ queryKey: queryKeys.codes.batches(client.id), queryFn: () => getBatches(client.id) });
  const [generating, setGenerating] = useState(false);
  const [message, setMessage] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const columns = useMemo(() => summaryColumns(), []);
  const headingId = useId();

  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{client.name}</h2>
      {canChange ? (
        <div className="settings-row">
          <button type="button" className="button button--primary" onClick={() => setGenerating(true)}>
            {t('codes.generate')}
          </button>
          <span role="status">{message}</span>
        </div>
      ) : (
        <p className="muted">{t('codes.readOnly')}</p>
      )}
      <QueryView query={batches}>
        {(data) => (
          <DataTable
            columns={columns}
            rows={data.batches}
            caption={t('codes.caption', { client: client.name })}
            numeric={COUNTS}
            onOpen={(row) => setSelected(row.name)}
            rowLabel={(row) => t('codes.open', { name: row.name ?? t('codes.noBatch') })}
            rowClass={(row) => (row.name !== null && row.name === selected ? 'row--selected' : undefined)}
            empty={t('codes.noBatches')}
          />
        )}
      </QueryView>
      {selected !== null ? <BatchDetailSection key={selected} client={client} batch={selected} canChange={canChange} /> : null}
      {generating ? <GenerateDialog client={client} onClose={() => setGenerating(false)} onDone={setMessage} /> : null}
    </section>
  );
}

/** A file name of the batch's name (the server's reply names it alike). */
const fileNameOf = (name: string) =>
  `codes-${
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'batch'
  }.csv`;

const whole = (text: string) => (/^\d{1,9}$/.test(text.trim()) ? Number(text) : Number.NaN);
const within = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

function GenerateDialog({ client, onClose, onDone }: { client: ConsoleClient; onClose: () => void; onDone: (message: string) => void }) {
  const mutation = useGenerateBatch(client.id);
  const [name, setName] = useState('');
  const [count, setCount] = useState('');
  const [value, setValue] = useState('');
  const [expires, setExpires] = useState('');
  const today = new Date().toISOString().slice(0, 10);
  const n = whole(count);
  const points = whole(value);
  const ready = name.trim().length > 0 && within(n, 1, MAX_BATCH_COUNT) && within(points, 1, MAX_CODE_VALUE);
  return (
    <ReasonDialog
      title={t('codes.generateTitle', { client: client.name })}
      intro={<p>{t('codes.generateIntro')}</p>}
      submitLabel={t('codes.generateSubmit')}
      ready={ready}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({ name: name.trim(), count: n, value: points, ...(expires ? { expires } : {}), reason })}
      onDone={(csv) => {
        const fileName = fileNameOf(name.trim());
        downloadText(fileName, csv);
        onDone(t('codes.generated', { count: formatNumber(n), name: name.trim(), file: fileName }));
      }}
    >
      <Field label={t('codes.name')} hint={t('codes.nameHint')}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={MAX_BATCH_NAME}
            autoComplete="off"
            required
          />
        )}
      </Field>
      <div className="role-grid">
        <NumberField
          label={t('codes.count')}
          hint={t('codes.countHint', { max: formatNumber(MAX_BATCH_COUNT) })}
          min={1}
          max={MAX_BATCH_COUNT}
          value={count}
          onChange={setCount}
        />
        <NumberField label={t('codes.valueField')} min={1} max={MAX_CODE_VALUE} value={value} onChange={setValue} />
      </div>
      <Field label={t('codes.expires')} hint={t('codes.expiresHint')}>
        {(id, hint) => (
          <input id={id} aria-describedby={hint} type="date" min={today} value={expires} onChange={(e) => setExpires(e.target.value)} />
        )}
      </Field>
    </ReasonDialog>
  );
}

const STATE_KEYS = {
  unused: 'codes.state.unused',
  redeemed: 'codes.state.redeemed',
  expired: 'codes.state.expired',
  void: 'codes.state.void',
} as const satisfies Record<BatchCode['state'], MessageKey>;

const codeColumns = (): Columns<BatchCode> => {
  const col = columnHelper<BatchCode>();
  return [
    col.accessor('hint', { header: t('codes.col.hint'), cell: (c) => <code>…{c.getValue()}</code> }),
    col.accessor('state', {
      header: t('codes.col.state'),
      cell: (c) => <span className={`badge badge--code-${c.getValue()}`}>{t(STATE_KEYS[c.getValue() as BatchCode['state']])}</span>,
    }),
    col.accessor('redeemedBy', { header: t('codes.col.redeemedBy'), cell: (c) => c.getValue() ?? '—' }),
    col.accessor('redeemedAt', { header: t('codes.col.redeemedAt'), cell: (c) => (c.getValue() ? formatDateTime(c.getValue()) : '—') }),
  ];
};

function BatchDetailSection({ client, batch, canChange }: { client: ConsoleClient; batch: string; canChange: boolean }) {
  const voidMutation = useVoidCodes(client.id, batch);
  const [hint, setHint] = useState('');
  const [filter, setFilter] = useState<string | undefined>(undefined);
  const detail = useQuery({
    queryKey: queryKeys.codes.batchShowing(client.id, batch, filter),
    queryFn: () => getBatch(client.id, batch, filter),
  });
  const [voiding, setVoiding] = useState<'one' | 'all' | null>(null);
  const [voidHint, setVoidHint] = useState('');
  const [message, setMessage] = useState('');
  const columns = useMemo(() => codeColumns(), []);
  const headingId = useId();

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter(hint.trim() || undefined);
  };
  const afterVoid = ({ voided, subject }: { voided: number; subject: string }) =>
    setMessage(
      voided === 0
        ? t('codes.nothingToVoid', { subject })
        : voided === 1
          ? t('codes.voidedOne', { subject })
          : t('codes.voided', { count: formatNumber(voided), subject }),
    );

  return (
    <section className="section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('codes.batchTitle', { name: batch })}</h3>
      <QueryView query={detail}>
        {(data) => (
          <>
            <dl className="facts">
              <div>
                <dt>{t('codes.col.value')}</dt>
                <dd>{data.value === null ? t('codes.mixed') : formatNumber(data.value)}</dd>
              </div>
              <div>
                <dt>{t('codes.col.expires')}</dt>
                <dd>{expiryText(data.expiresAt)}</dd>
              </div>
              <div>
                <dt>{t('codes.col.created')}</dt>
                <dd>{formatDateTime(data.createdAt)}</dd>
              </div>
              <div>
                <dt>{t('codes.counts')}</dt>
                <dd>
                  {t('codes.countsText', {
                    total: formatNumber(data.total),
                    unused: formatNumber(data.unused),
                    redeemed: formatNumber(data.redeemed),
                    expired: formatNumber(data.expired),
                    void: formatNumber(data.void),
                  })}
                </dd>
              </div>
            </dl>
            {canChange ? (
              <div className="settings-row">
                <button type="button" className="button" onClick={() => setVoiding('one')}>
                  {t('codes.voidOne')}
                </button>
                <button type="button" className="button button--danger" onClick={() => setVoiding('all')} disabled={data.unused === 0}>
                  {t('codes.voidAll')}
                </button>
                <span role="status">{message}</span>
              </div>
            ) : null}
            <form className="settings-row codes-find" onSubmit={search} aria-label={t('codes.findCode')}>
              <Field label={t('codes.hint')}>
                {(id) => (
                  <input
                    id={id}
                    value={hint}
                    onChange={(e) => setHint(e.target.value)}
                    maxLength={8}
                    autoComplete="off"
                    spellCheck={false}
                  />
                )}
              </Field>
              <button type="submit" className="button">
                {t('codes.find')}
              </button>
            </form>
            <DataTable columns={columns} rows={data.codes} caption={t('codes.codesCaption', { name: batch })} empty={t('codes.noMatch')} />
            {data.matched > data.codes.length ? (
              <p className="muted">{t('codes.more', { shown: formatNumber(data.codes.length), matched: formatNumber(data.matched) })}</p>
            ) : null}
          </>
        )}
      </QueryView>
      {voiding === 'one' ? (
        <ReasonDialog
          title={t('codes.voidOneTitle', { name: batch })}
          intro={<p>{t('codes.voidOneIntro')}</p>}
          submitLabel={t('codes.voidSubmit')}
          danger
          ready={voidHint.trim().length > 0}
          onClose={() => setVoiding(null)}
          mutation={voidMutation}
          variables={(reason) => ({ hint: voidHint.trim(), reason })}
          onDone={afterVoid}
        >
          <Field label={t('codes.hint')} hint={t('codes.hintHint')}>
            {(id, described) => (
              <input
                id={id}
                aria-describedby={described}
                value={voidHint}
                onChange={(e) => setVoidHint(e.target.value)}
                maxLength={8}
                autoComplete="off"
                spellCheck={false}
                required
              />
            )}
          </Field>
        </ReasonDialog>
      ) : null}
      {voiding === 'all' ? (
        <ReasonDialog
          title={t('codes.voidAllTitle', { name: batch })}
          intro={<p>{t('codes.voidAllIntro')}</p>}
          submitLabel={t('codes.voidSubmit')}
          danger
          onClose={() => setVoiding(null)}
          mutation={voidMutation}
          variables={(reason) => ({ reason })}
          onDone={afterVoid}
        />
      ) : null}
    </section>
  );
}
