import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import {
  API_SCOPES,
  DEFAULT_BURST,
  DEFAULT_RATE_PER_SECOND,
  MAX_API_KEY_NAME,
  MAX_BURST,
  MAX_RATE_PER_SECOND,
  MIN_RATE_PER_SECOND,
  type ApiKeyView,
  type ApiScope,
  type CreatedApiKey,
} from '@rewards/contract/console-api-keys';
import { formatDateTime, formatNumber, t, type MessageKey } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ClientSettingsPage } from '../../ui/ClientSettingsPage.tsx';
import { Field, NumberField } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { SecretOnce } from '../../ui/SecretOnce.tsx';
import { getApiKeys } from './api.ts';
import { useCreateApiKey, useRevokeApiKey } from './mutations.ts';
import './api-keys.css';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';

const scopeLabel = (scope: ApiScope) => t(`apiKeys.scope.${scope}` as MessageKey);
const scopeHint = (scope: ApiScope) => t(`apiKeys.scopeHint.${scope}` as MessageKey);

/**
 * Settings → API keys (issue 29 §1, decision 083): the keys a client's own systems call the
 * program API with. Owners, program managers and auditors of a client see its keys (never a key
 * itself); owners and program managers make one (a fresh second factor, asked for by the API
 * client; the key is shown once, from the reply, and kept nowhere) and revoke one, with a reason.
 */
export default function ApiKeysPage() {
  return (
    <ClientSettingsPage
      title={t('apiKeys.title')}
      intro={t('apiKeys.intro')}
      noClient={t('apiKeys.noClient')}
      clientLabel={t('apiKeys.client')}
      // Support agents do not see keys: the server would refuse them (decision 083).
      shows={(c, owner) => owner || c.role === 'program_manager' || c.role === 'auditor'}
    >
      {(client, canChange) => <ClientKeys key={client.id} client={client} canChange={canChange} />}
    </ClientSettingsPage>
  );
}

// Stands for the person in a translated text, so the address can be set with a line break allowed before its "@".
const PERSON = '\u0000';

/** A text naming a person (an e-mail address): the address may wrap before its "@", so a narrow table stays in its column. */
function WithPerson({ text, person }: { text: string; person: string }) {
  const [before, after = ''] = text.split(PERSON);
  const at = person.indexOf('@');
  return (
    <>
      {before}
      {at > 0 ? (
        <>
          {person.slice(0, at)}
          <wbr />
          {person.slice(at)}
        </>
      ) : (
        person
      )}
      {after}
    </>
  );
}

const limitsText = (k: ApiKeyView) => t('apiKeys.limits', { rate: formatNumber(k.ratePerSecond), burst: formatNumber(k.burst) });

function ClientKeys({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const keys = useQuery({ queryKey: queryKeys.apiKeys(client.id), queryFn: () => getApiKeys(client.id) });
  const revoke = useRevokeApiKey(client.id);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [message, setMessage] = useState('');
  const headingId = useId();

  const columns = useMemo((): Columns<ApiKeyView> => {
    const col = columnHelper<ApiKeyView>();
    return [
      // The name, and the key's visible start below it: one column, so the list fits a tablet's width.
      col.accessor('name', {
        header: t('apiKeys.col.key'),
        cell: (c) => (
          <>
            {c.getValue()}
            <br />
            <code className="muted api-key-prefix">{c.row.original.prefix}…</code>
          </>
        ),
      }),
      col.accessor((k) => k.scopes.join(', '), {
        id: 'scopes',
        header: t('apiKeys.col.scopes'),
        cell: (c) => (
          <ul className="api-key-scopes">
            {c.row.original.scopes.map((s) => (
              <li key={s}>
                {/* A line break allowed after the colon: the column stays narrow on a tablet. */}
                <code>{s.split(':').map((part, i) => (i === 0 ? part : [':', <wbr key={i} />, part]))}</code>
              </li>
            ))}
          </ul>
        ),
      }),
      col.accessor((k) => limitsText(k), { id: 'limits', header: t('apiKeys.col.limits') }),
      col.accessor('createdAt', {
        header: t('apiKeys.col.created'),
        cell: (c) => (
          <>
            {formatDateTime(c.getValue())}
            <br />
            <span className="muted">
              <WithPerson text={t('apiKeys.by', { who: PERSON })} person={c.row.original.createdBy} />
            </span>
          </>
        ),
      }),
      col.accessor('lastUsedAt', { header: t('apiKeys.col.lastUsed'), cell: (c) => formatDateTime(c.getValue()) }),
      col.accessor('revokedAt', {
        header: t('apiKeys.col.state'),
        cell: (c) => {
          const k = c.row.original;
          if (!k.revokedAt)
            return (
              <div className="row-actions">
                <span className="badge badge--active">{t('apiKeys.state.active')}</span>
                {canChange ? (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => setRevoking(k)}
                    aria-label={t('apiKeys.revokeOf', { name: k.name })}
                  >
                    {t('apiKeys.revoke')}
                  </button>
                ) : null}
              </div>
            );
          return (
            <>
              <span className="badge badge--disabled">{t('apiKeys.state.revoked')}</span>
              <br />
              <span className="muted">
                <WithPerson text={t('apiKeys.revokedOn', { date: formatDateTime(k.revokedAt), who: PERSON })} person={k.revokedBy ?? '?'} />
                {k.revokeReason ? `: ${k.revokeReason}` : ''}
              </span>
            </>
          );
        },
      }),
    ];
  }, [canChange]);

  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{client.name}</h2>
      {canChange ? (
        <div className="settings-row">
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            {t('apiKeys.create')}
          </button>
          <span role="status">{message}</span>
        </div>
      ) : (
        <p className="muted">{t('apiKeys.readOnly')}</p>
      )}
      {created ? (
        <NewKey
          created={created}
          onDone={() => {
            setCreated(null);
            setMessage(t('apiKeys.createdStatus', { name: created.view.name }));
          }}
        />
      ) : null}
      <QueryView query={keys}>
        {(data) => (
          <DataTable
            columns={columns}
            rows={data.keys}
            caption={t('apiKeys.caption', { client: client.name })}
            numeric={[]}
            rowClass={(k) => (k.revokedAt ? 'row--muted' : undefined)}
            empty={t('apiKeys.none')}
          />
        )}
      </QueryView>
      {creating ? (
        <CreateDialog
          client={client}
          onClose={() => setCreating(false)}
          onCreated={(made) => {
            setMessage('');
            setCreated(made);
          }}
        />
      ) : null}
      {revoking ? (
        <ReasonDialog
          title={t('apiKeys.revokeTitle', { name: revoking.name })}
          intro={
            <>
              <p>{t('apiKeys.revokeIntro', { prefix: revoking.prefix })}</p>
              <p>
                <strong>{t('apiKeys.revokeWarning')}</strong>
              </p>
            </>
          }
          submitLabel={t('apiKeys.revokeSubmit')}
          danger
          onClose={() => setRevoking(null)}
          mutation={revoke}
          variables={(reason) => ({ keyId: revoking.id, reason })}
          onDone={(view) => {
            if (created?.view.id === view.id) setCreated(null);
            setMessage(t('apiKeys.revokedStatus', { name: view.name }));
          }}
        />
      ) : null}
    </section>
  );
}

/** The new key, this once: copy it, then it is gone from the page (and was never kept on the server). */
function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <SecretOnce
      className="api-key-new"
      title={t('apiKeys.newTitle', { name: created.view.name })}
      once={t('apiKeys.newOnce')}
      secret={created.key}
      testId="new-api-key"
      labels={{ copy: t('apiKeys.copy'), stored: t('apiKeys.stored'), copied: t('apiKeys.copied'), copyFailed: t('apiKeys.copyFailed') }}
      note={t('apiKeys.usage')}
      onDone={onDone}
    />
  );
}

const decimal = (text: string) => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN);
const whole = (text: string) => (/^\d{1,9}$/.test(text.trim()) ? Number(text) : Number.NaN);

function CreateDialog({
  client,
  onClose,
  onCreated,
}: {
  client: ConsoleClient;
  onClose: () => void;
  /** After the key is made (and the list read again): its only copy. */
  onCreated: (made: CreatedApiKey) => void;
}) {
  const mutation = useCreateApiKey(client.id);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [rate, setRate] = useState(String(DEFAULT_RATE_PER_SECOND));
  const [burst, setBurst] = useState(String(DEFAULT_BURST));
  const rateValue = decimal(rate);
  const burstValue = whole(burst);
  const rateOk = rateValue >= MIN_RATE_PER_SECOND && rateValue <= MAX_RATE_PER_SECOND;
  const burstOk = Number.isInteger(burstValue) && burstValue >= 1 && burstValue <= MAX_BURST;
  return (
    <ReasonDialog
      title={t('apiKeys.createTitle', { client: client.name })}
      intro={<p>{t('apiKeys.createIntro')}</p>}
      submitLabel={t('apiKeys.createSubmit')}
      ready={name.trim() !== '' && scopes.length > 0 && rateOk && burstOk}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({
        name: name.trim(),
        // In the list's order, as the server keeps them.
        scopes: API_SCOPES.filter((s) => scopes.includes(s)),
        ratePerSecond: rateValue,
        burst: burstValue,
        reason,
      })}
      onDone={onCreated}
    >
      <Field label={t('apiKeys.name')} hint={t('apiKeys.nameHint')}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            value={name}
            maxLength={MAX_API_KEY_NAME}
            onChange={(e) => setName(e.target.value)}
            required
          />
        )}
      </Field>
      <fieldset className="api-key-scope-list">
        <legend>{t('apiKeys.scopes')}</legend>
        {API_SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => setScopes((all) => (e.target.checked ? [...all, scope] : all.filter((s) => s !== scope)))}
            />
            <span>
              {scopeLabel(scope)} <code className="muted">{scope}</code>
              <br />
              <span className="field__hint">{scopeHint(scope)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="role-grid">
        <NumberField
          label={t('apiKeys.rate')}
          hint={t('apiKeys.rateHint', { default: DEFAULT_RATE_PER_SECOND })}
          min={MIN_RATE_PER_SECOND}
          max={MAX_RATE_PER_SECOND}
          step="any"
          value={rate}
          invalid={!rateOk}
          onChange={setRate}
        />
        <NumberField
          label={t('apiKeys.burst')}
          hint={t('apiKeys.burstHint', { default: DEFAULT_BURST })}
          min={1}
          max={MAX_BURST}
          value={burst}
          invalid={!burstOk}
          onChange={setBurst}
        />
      </div>
    </ReasonDialog>
  );
}
