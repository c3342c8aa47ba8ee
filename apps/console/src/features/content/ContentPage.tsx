import { useEffect, useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import { MAX_CONTENT_BYTES, type ContentEntry } from '@rewards/contract/console-translations';
import { useChosenClient } from '../../api/clients.ts';
import { getContentEntry, getContentList, previewContent } from '../../api/translations.ts';
import { useSession } from '../../app/session.tsx';
import { formatDateTime, t } from '../../i18n/t.ts';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useRemoveContent, useSaveContent } from './mutations.ts';

/** How long the editor waits after the last keystroke before asking for a new preview. */
const PREVIEW_DELAY_MS = 300;

/**
 * Rules, FAQs and privacy texts in Markdown per locale (issue 20 §4, decision 066), with the
 * preview rendered by the portal's own renderer on the server (same sanitising, so the preview is
 * what participants will see). Program managers and owners save, with a reason; others read.
 */
export default function ContentPage() {
  const { me } = useSession();
  const { clients, client, params, setParams } = useChosenClient();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  if (!client) return <p>{t('error.forbidden')}</p>;
  return (
    <div className="stack">
      <h1>{t('content.title')}</h1>
      <ClientContent
        key={client.id}
        client={client}
        clients={clients.data}
        canChange={me.owner || client.role === 'program_manager'}
        wantedLocale={params.get('locale') ?? ''}
        wantedKey={params.get('key') ?? 'faqs'}
        onPick={(next) => setParams(next)}
      />
    </div>
  );
}

function keyName(key: string): string {
  if (key === 'faqs') return t('content.key.faqs');
  if (key === 'privacyPolicy') return t('content.key.privacyPolicy');
  if (key === 'privacyNotice') return t('content.key.privacyNotice');
  return t('content.key.rules', { program: key.slice('rules.'.length) });
}

function ClientContent({
  client,
  clients,
  canChange,
  wantedLocale,
  wantedKey,
  onPick,
}: {
  client: ConsoleClient;
  clients: ConsoleClient[];
  canChange: boolean;
  wantedLocale: string;
  wantedKey: string;
  onPick: (params: Record<string, string>) => void;
}) {
  const list = useQuery({ queryKey: queryKeys.content.list(client.id), queryFn: () => getContentList(client.id) });
  const locale = wantedLocale || list.data?.defaultLocale || '';
  const key = wantedKey;
  const entry = useQuery({
    queryKey: queryKeys.content.entry(client.id, locale, key),
    queryFn: () => getContentEntry(client.id, locale, key),
    enabled: locale !== '',
  });
  const pick = (next: { locale?: string; key?: string }) =>
    onPick({ client: client.id, locale: next.locale ?? locale, key: next.key ?? key });
  return (
    <section className="stack" aria-label={client.name}>
      <div className="filters" role="group" aria-label={t('content.choose')}>
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
            <select id={id} value={locale} onChange={(e) => pick({ locale: e.target.value })}>
              {list.data?.locales.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.name} ({l.code})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('content.text')}>
          {(id) => (
            <select id={id} value={key} onChange={(e) => pick({ key: e.target.value })}>
              {(list.data?.keys ?? [key]).map((k) => {
                const exists = list.data?.entries.some((e) => e.key === k && e.locale === locale);
                return (
                  <option key={k} value={k}>
                    {keyName(k)}
                    {exists ? '' : ` — ${t('content.none')}`}
                  </option>
                );
              })}
            </select>
          )}
        </Field>
      </div>
      {list.isError ? <ErrorMessage error={list.error} /> : null}
      {entry.isError ? <ErrorMessage error={entry.error} /> : null}
      {entry.data ? (
        <Editor key={`${locale}/${key}`} client={client} entry={entry.data} canChange={canChange} />
      ) : entry.isPending && locale !== '' ? (
        <p className="loading">{t('common.loading')}</p>
      ) : null}
    </section>
  );
}

function Editor({ client, entry, canChange }: { client: ConsoleClient; entry: ContentEntry; canChange: boolean }) {
  const save = useSaveContent(client.id);
  const remove = useRemoveContent(client.id);
  const [body, setBody] = useState(entry.body ?? '');
  const [settled, setSettled] = useState(body);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [message, setMessage] = useState('');
  const previewId = useId();
  // The preview follows the text once typing pauses: one request per pause, not per key.
  useEffect(() => {
    const timer = setTimeout(() => setSettled(body), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [body]);
  const preview = useQuery({
    queryKey: queryKeys.content.preview(client.id, settled),
    queryFn: () => previewContent(client.id, settled),
    enabled: settled.trim() !== '' && settled !== entry.body,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const html = settled === entry.body ? entry.html : settled.trim() === '' ? '' : (preview.data?.html ?? null);
  const tooBig = new TextEncoder().encode(body).length > MAX_CONTENT_BYTES;
  const changed = body !== (entry.body ?? '');
  return (
    <div className="stack">
      <p className="muted">{entry.updatedAt ? t('content.updatedAt', { when: formatDateTime(entry.updatedAt) }) : t('content.notYet')}</p>
      <div className="columns texts-editor">
        <Field label={t('content.markdown', { locale: entry.locale })} hint={t('content.markdownHint')}>
          {(id, hint) => (
            <textarea
              id={id}
              lang={entry.locale}
              aria-describedby={hint}
              value={body}
              readOnly={!canChange}
              onChange={(e) => setBody(e.target.value)}
              rows={18}
              className="texts-markdown"
            />
          )}
        </Field>
        <section className="texts-preview-box" aria-labelledby={previewId}>
          <h2 id={previewId}>{t('content.preview')}</h2>
          {preview.isError ? <ErrorMessage error={preview.error} /> : null}
          {html === null ? (
            <p className="loading">{t('common.loading')}</p>
          ) : (
            // The server's rendering: the portal's own renderer, raw HTML and unsafe links removed (modules/content/markdown.ts).
            <div className="texts-preview md" lang={entry.locale} dangerouslySetInnerHTML={{ __html: html }} />
          )}
        </section>
      </div>
      {tooBig ? (
        <p className="error" role="alert">
          {t('content.tooBig')}
        </p>
      ) : null}
      {canChange ? (
        <div className="actions">
          <button
            type="button"
            className="button button--primary"
            disabled={!changed || tooBig || body.trim() === ''}
            onClick={() => setSaving(true)}
          >
            {t('content.save')}
          </button>
          {entry.body !== null ? (
            <button type="button" className="button" onClick={() => setRemoving(true)}>
              {t('content.remove')}
            </button>
          ) : null}
          <span role="status">{message}</span>
        </div>
      ) : (
        <p className="muted">{t('translations.readOnly')}</p>
      )}
      {saving ? (
        <ReasonDialog
          title={t('content.saveTitle', { text: keyName(entry.key), locale: entry.locale })}
          submitLabel={t('content.save')}
          onClose={() => setSaving(false)}
          mutation={save}
          variables={(reason) => ({ locale: entry.locale, key: entry.key, body, reason })}
          onDone={(done) => setMessage(done.auditId ? t('content.saved') : t('translations.unchanged'))}
        />
      ) : null}
      {removing ? (
        <ReasonDialog
          title={t('content.removeTitle', { text: keyName(entry.key), locale: entry.locale })}
          intro={<p>{t('content.removeIntro', { locale: entry.locale })}</p>}
          submitLabel={t('content.remove')}
          onClose={() => setRemoving(false)}
          mutation={remove}
          variables={(reason) => ({ locale: entry.locale, key: entry.key, reason })}
          onDone={(done) => {
            setBody('');
            setMessage(done.auditId ? t('content.removed') : t('translations.unchanged'));
          }}
        />
      ) : null}
    </div>
  );
}
