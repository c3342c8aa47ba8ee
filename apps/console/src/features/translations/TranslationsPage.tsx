import { useDeferredValue, useId, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import {
  BUNDLE_FORMATS,
  MAX_BUNDLE_BYTES,
  type BundleFormat,
  type ImportBundleReply,
  type TranslationRow,
  type TranslationsView,
} from '@rewards/contract/console-translations';
import { useChosenClient } from '../../api/clients.ts';
import { exportTranslationsUrl, getContentList, getTranslations } from '../../api/translations.ts';
import { useSession } from '../../app/session.tsx';
import { formatNumber, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { KEEP_OPEN, ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useApplyBundle, usePreviewBundle, useRemoveTranslation, useSaveTranslation, type Bundle } from './mutations.ts';

type Filter = 'all' | 'toTranslate' | 'mismatch' | 'own';
const FILTERS: readonly Filter[] = ['all', 'toTranslate', 'mismatch', 'own'];

/**
 * A client's wording per locale (issue 20 §4, decision 066): the keys against the default
 * locale (missing, untranslated, placeholders that differ), search, one key's edit with a
 * reason, a bundle's import (what would change first) and export. Program managers and owners
 * change; every other role reads.
 */
export default function TranslationsPage() {
  const { me } = useSession();
  const { clients, client, params, setParams } = useChosenClient();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  if (!client) return <p>{t('error.forbidden')}</p>;
  return (
    <div className="stack">
      <h1>{t('translations.title')}</h1>
      <ClientTranslations
        key={client.id}
        client={client}
        clients={clients.data}
        canChange={me.owner || client.role === 'program_manager'}
        locale={params.get('locale') ?? ''}
        onPick={(next) => setParams(next)}
      />
    </div>
  );
}

function ClientTranslations({
  client,
  clients,
  canChange,
  locale: wanted,
  onPick,
}: {
  client: ConsoleClient;
  clients: ConsoleClient[];
  canChange: boolean;
  locale: string;
  onPick: (params: Record<string, string>) => void;
}) {
  const [filter, setFilter] = useState<Filter>('toTranslate');
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const [editing, setEditing] = useState<TranslationRow | null>(null);
  const [removing, setRemoving] = useState<TranslationRow | null>(null);
  const [message, setMessage] = useState('');
  // The client's locales (the content list names them); until one is picked, the first that is not the default.
  const probe = useQuery({ queryKey: queryKeys.content.list(client.id), queryFn: () => getContentList(client.id) });
  const locale = wanted || probe.data?.locales.find((l) => l.code !== probe.data?.defaultLocale)?.code || probe.data?.defaultLocale || '';
  const view = useQuery({
    queryKey: queryKeys.translations.page(client.id, locale, filter, q),
    queryFn: () => getTranslations(client.id, locale, { filter, q }),
    enabled: locale !== '',
    placeholderData: keepPreviousData,
  });
  const data: TranslationsView | undefined = view.data ?? undefined;
  const remove = useRemoveTranslation(client.id, data?.locale ?? locale);
  const columns = useTranslationColumns(canChange, setEditing, setRemoving, data?.defaultLocale ?? '', locale);
  const filterGroup = useId();

  return (
    <section className="stack" aria-label={client.name}>
      <div className="filters" role="group" aria-label={t('translations.choose')}>
        <Field label={t('translations.client')}>
          {(id) => (
            <select id={id} value={client.id} onChange={(e) => onPick({ client: e.target.value })}>
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('translations.locale')}>
          {(id) => (
            <select id={id} value={locale} onChange={(e) => onPick({ client: client.id, locale: e.target.value })}>
              {(data ?? probe.data)?.locales.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.name} ({l.code})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('translations.search')} hint={t('translations.searchHint')}>
          {(id, hint) => <input id={id} type="search" aria-describedby={hint} value={search} onChange={(e) => setSearch(e.target.value)} />}
        </Field>
      </div>
      {probe.isError ? <ErrorMessage error={probe.error} /> : null}
      {view.isError ? <ErrorMessage error={view.error} /> : null}
      {data ? (
        <>
          <p className="muted">
            {t('translations.summary', {
              keys: formatNumber(data.counts.keys),
              missing: formatNumber(data.counts.missing),
              untranslated: formatNumber(data.counts.untranslated),
              mismatches: formatNumber(data.counts.mismatches),
              own: formatNumber(data.counts.own),
              defaultLocale: data.defaultLocale,
            })}
          </p>
          <fieldset>
            <legend id={filterGroup}>{t('translations.show')}</legend>
            <div className="segmented texts-filters">
              {FILTERS.map((f) => (
                <label key={f} className="check">
                  <input type="radio" name={filterGroup} value={f} checked={filter === f} onChange={() => setFilter(f)} />
                  {t(`translations.filter.${f}`, {
                    n: formatNumber(
                      f === 'all'
                        ? data.counts.keys
                        : f === 'toTranslate'
                          ? data.counts.missing + data.counts.untranslated
                          : f === 'mismatch'
                            ? data.counts.mismatches
                            : data.counts.own,
                    ),
                  })}
                </label>
              ))}
            </div>
          </fieldset>
          <p role="status" className="texts-status">
            {message}
          </p>
          <DataTable
            columns={columns}
            rows={data.rows}
            caption={t('translations.caption', { locale: data.locale })}
            empty={t('translations.none')}
            rowClass={(row) => (row.state === 'ok' && !row.placeholders ? undefined : 'texts-row--attention')}
          />
          {data.truncated ? <p className="muted">{t('translations.truncated')}</p> : null}
          <div className="columns">
            <ExportBox clientId={client.id} locale={data.locale} />
            {canChange ? (
              <ImportBox
                client={client}
                locale={data.locale}
                onApplied={(reply) => setMessage(t('translations.imported', { added: reply.added.length, updated: reply.updated.length }))}
              />
            ) : (
              <p className="muted">{t('translations.readOnly')}</p>
            )}
          </div>
        </>
      ) : view.isPending && locale !== '' ? (
        <p className="loading">{t('common.loading')}</p>
      ) : null}
      {removing && data ? (
        <ReasonDialog
          title={t('translations.removeTitle', { key: removing.key, locale: data.locale })}
          intro={<p>{t('translations.removeIntro')}</p>}
          submitLabel={t('translations.remove')}
          danger
          onClose={() => setRemoving(null)}
          mutation={remove}
          variables={(reason) => ({ key: removing.key, reason })}
          onDone={(done) => setMessage(done.auditId ? t('translations.removed', { key: removing.key }) : t('translations.unchanged'))}
        />
      ) : null}
      {editing && data ? (
        <EditDialog
          client={client}
          locale={data.locale}
          defaultLocale={data.defaultLocale}
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={(changed) => setMessage(changed ? t('translations.saved', { key: editing.key }) : t('translations.unchanged'))}
        />
      ) : null}
    </section>
  );
}

const STATE_WORDS = {
  missing: 'translations.state.missing',
  untranslated: 'translations.state.untranslated',
  ok: 'translations.state.ok',
} as const;

function useTranslationColumns(
  canChange: boolean,
  edit: (row: TranslationRow) => void,
  remove: (row: TranslationRow) => void,
  defaultLocale: string,
  locale: string,
) {
  return useMemo(() => {
    const col = columnHelper<TranslationRow>();
    const columns: Columns<TranslationRow> = [
      col.accessor('key', { header: t('translations.key'), cell: (c) => <KeyText value={c.getValue()} /> }),
      col.accessor('reference', {
        header: t('translations.reference', { locale: defaultLocale }),
        cell: (c) => <span lang={defaultLocale}>{c.getValue() ?? '—'}</span>,
      }),
      col.accessor('text', {
        header: t('translations.text', { locale }),
        cell: (c) =>
          c.getValue() === null ? <span className="muted">{t('translations.noText')}</span> : <span lang={locale}>{c.getValue()}</span>,
      }),
      col.display({
        id: 'state',
        header: t('translations.stateHeader'),
        cell: (c) => {
          const row = c.row.original;
          return (
            <span className="texts-state">
              <span className={`badge badge--${row.state === 'ok' ? 'active' : 'pending'}`}>{t(STATE_WORDS[row.state])}</span>
              {row.source === 'client' ? <span className="badge">{t('translations.source.client')}</span> : null}
              {row.placeholders ? (
                <span className="badge badge--failed">
                  {t('translations.placeholders', {
                    expected: row.placeholders.expected.map((p) => `{${p}}`).join(' ') || '—',
                    found: row.placeholders.found.map((p) => `{${p}}`).join(' ') || '—',
                  })}
                </span>
              ) : null}
            </span>
          );
        },
      }),
    ];
    if (canChange)
      columns.push(
        col.display({
          id: 'edit',
          header: () => <span className="visually-hidden">{t('translations.actions')}</span>,
          cell: (c) => (
            <span className="row-actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => edit(c.row.original)}
                aria-label={t('translations.editKey', { key: c.row.original.key })}
              >
                {t('translations.edit')}
              </button>
              {c.row.original.source === 'client' ? (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => remove(c.row.original)}
                  aria-label={t('translations.removeKey', { key: c.row.original.key })}
                >
                  {t('translations.remove')}
                </button>
              ) : null}
            </span>
          ),
        }),
      );
    return columns;
  }, [canChange, edit, remove, defaultLocale, locale]);
}

/** A key that may break after its dots (login.<wbr>intro), never inside a word. */
function KeyText({ value }: { value: string }) {
  const parts = value.split('.');
  return (
    <code className="texts-key">
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 ? (
            <>
              .<wbr />
            </>
          ) : null}
        </span>
      ))}
    </code>
  );
}

function EditDialog({
  client,
  locale,
  defaultLocale,
  row,
  onClose,
  onSaved,
}: {
  client: ConsoleClient;
  locale: string;
  defaultLocale: string;
  row: TranslationRow;
  onClose: () => void;
  /** After the save (which has the pages read again); `changed` false: the text was already so. */
  onSaved: (changed: boolean) => void;
}) {
  const [text, setText] = useState(row.text ?? '');
  const mutation = useSaveTranslation(client.id, locale);
  return (
    <ReasonDialog
      title={t('translations.editTitle', { key: row.key, locale })}
      intro={
        row.reference === null ? undefined : (
          <p>
            {t('translations.referenceIs', { locale: defaultLocale })} <q lang={defaultLocale}>{row.reference}</q>
          </p>
        )
      }
      submitLabel={t('translations.save')}
      ready={text.trim() !== ''}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({ key: row.key, text, reason })}
      onDone={(done) => onSaved(done.auditId !== null)}
    >
      <Field label={t('translations.textIn', { locale })} hint={t('translations.textHint')}>
        {(id, hint) => (
          <textarea
            id={id}
            lang={locale}
            aria-describedby={hint}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            required
          />
        )}
      </Field>
    </ReasonDialog>
  );
}

function ExportBox({ clientId, locale }: { clientId: string; locale: string }) {
  return (
    <section className="section" aria-labelledby="texts-export">
      <h2 id="texts-export">{t('translations.export')}</h2>
      <p className="muted">{t('translations.exportHint')}</p>
      <div className="actions">
        {BUNDLE_FORMATS.map((format) => (
          <a key={format} className="button" href={exportTranslationsUrl(clientId, locale, format, 'all')} download>
            {t('translations.exportAll', { format: format === 'json' ? 'JSON' : '.properties' })}
          </a>
        ))}
        <a className="button" href={exportTranslationsUrl(clientId, locale, 'json', 'toTranslate')} download>
          {t('translations.exportToTranslate')}
        </a>
        <a className="button" href={exportTranslationsUrl(clientId, locale, 'json', 'own')} download>
          {t('translations.exportOwn')}
        </a>
      </div>
    </section>
  );
}

function formatOf(name: string): BundleFormat | undefined {
  const lower = name.toLowerCase();
  return lower.endsWith('.json') ? 'json' : lower.endsWith('.properties') ? 'properties' : undefined;
}

/** Choose a file, see what it would change, then apply it with a reason. */
function ImportBox({
  client,
  locale,
  onApplied,
}: {
  client: ConsoleClient;
  locale: string;
  /** After the bundle was applied (and the pages read again). */
  onApplied: (reply: ImportBundleReply) => void;
}) {
  const [file, setFile] = useState<Bundle | null>(null);
  const [fileError, setFileError] = useState('');
  const [confirming, setConfirming] = useState(false);
  // What the chosen file would change: the preview's own pending state, refusal and answer.
  const previewing = usePreviewBundle(client.id, locale);
  const preview = previewing.data ?? null;
  const apply = useApplyBundle(client.id, locale);

  const choose = async (chosen: File | undefined) => {
    previewing.reset();
    setFileError('');
    setFile(null);
    if (!chosen) return;
    const format = formatOf(chosen.name);
    if (!format) return setFileError(t('translations.import.wrongType'));
    if (chosen.size > MAX_BUNDLE_BYTES) return setFileError(t('translations.import.tooBig'));
    const bundle = { fileName: chosen.name, format, content: await chosen.text() };
    setFile(bundle);
    previewing.mutate(bundle);
  };

  return (
    <section className="section" aria-labelledby="texts-import">
      <h2 id="texts-import">{t('translations.import', { locale })}</h2>
      <Field label={t('translations.import.file')} hint={t('translations.import.hint')}>
        {(id, hint) => (
          <input
            id={id}
            type="file"
            accept=".json,.properties"
            aria-describedby={hint}
            onChange={(e) => void choose(e.target.files?.[0])}
          />
        )}
      </Field>
      {fileError ? (
        <p className="error" role="alert">
          {fileError}
        </p>
      ) : null}
      <ErrorMessage error={previewing.error} />
      {previewing.isPending ? <p className="loading">{t('common.working')}</p> : null}
      {preview && file ? (
        <div className="stack" aria-live="polite">
          <ImportSummary reply={preview} />
          {preview.added.length + preview.updated.length > 0 ? (
            <div className="actions">
              <button type="button" className="button button--primary" onClick={() => setConfirming(true)}>
                {t('translations.import.apply', { n: preview.added.length + preview.updated.length })}
              </button>
            </div>
          ) : (
            <p>{t('translations.import.nothing')}</p>
          )}
        </div>
      ) : null}
      {confirming && file ? (
        <ReasonDialog
          title={t('translations.import.confirmTitle', { file: file.fileName, locale })}
          submitLabel={t('translations.import.confirm')}
          onClose={() => setConfirming(false)}
          mutation={apply}
          variables={(reason) => ({ ...file, reason })}
          onDone={(reply) => {
            previewing.reset();
            setFile(null);
            onApplied(reply);
            return reply.applied ? undefined : KEEP_OPEN;
          }}
        />
      ) : null}
    </section>
  );
}

function KeyList({ title, keys }: { title: string; keys: string[] }) {
  if (keys.length === 0) return null;
  return (
    <details>
      <summary>{title}</summary>
      <p className="texts-keys">{keys.join(', ')}</p>
    </details>
  );
}

function ImportSummary({ reply }: { reply: ImportBundleReply }) {
  return (
    <div className="stack">
      <p>
        <strong>
          {t('translations.import.counts', {
            added: reply.added.length,
            updated: reply.updated.length,
            unchanged: reply.unchanged,
            rejected: reply.rejected.length,
          })}
        </strong>
      </p>
      <KeyList title={t('translations.import.added', { n: reply.added.length })} keys={reply.added} />
      <KeyList title={t('translations.import.updated', { n: reply.updated.length })} keys={reply.updated} />
      <KeyList
        title={t('translations.import.rejected', { n: reply.rejected.length })}
        keys={reply.rejected.map((r) => `${r.key} ({${r.found.join('}, {')}})`)}
      />
      <KeyList title={t('translations.import.extra', { n: reply.extra.length })} keys={reply.extra} />
      <KeyList
        title={t('translations.import.mismatches', { n: reply.placeholderMismatches.length })}
        keys={reply.placeholderMismatches.map((r) => r.key)}
      />
      <KeyList title={t('translations.import.missing', { n: reply.missing.length })} keys={reply.missing} />
    </div>
  );
}
