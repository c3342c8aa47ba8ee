import { useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useNavigate, useParams, useSearchParams } from 'react-router';
import type { ConsoleClient } from '@rewards/contract/console';
import type { EarningRuleVersionView } from '@rewards/contract/console-earning-rules';
import type { EarningRuleView } from '@rewards/contract/earning-rules';
import { useClients } from '../../api/clients.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useSession } from '../../app/session.tsx';
import { formatDateTime, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { Fact } from '../../ui/Fact.tsx';
import { ErrorMessage } from '../../ui/Form.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { getRule, getRules } from './api.ts';
import { useSetRuleState } from './mutations.ts';
import { RuleEditor, NEW_RULE } from './RuleEditor.tsx';
import { TryIt } from './TryIt.tsx';
import { EventTypes } from './EventTypes.tsx';
import { budgetText, capText, conditionText, earnText, validityText } from './words.ts';
import './earning-rules.css';
import { ClientPicker } from '../../ui/ClientPicker.tsx';

/**
 * Programs → Earning rules (issue 32 §2, decisions 095 and 096): a client's rules (what each
 * earns, whether it is on, the days it earns, its budget used and left), a rule's page with every
 * version (who, when, why), a form and a JSON view to write one, enable and disable with a reason,
 * and "Try it": what an event would earn, rule by rule, writing nothing. Every role of the client
 * reads and tries; program managers and owners change (the server refuses the others).
 */
export default function EarningRulesPage() {
  return (
    <Routes>
      <Route index element={<RulesList />} />
      <Route path=":clientId/new" element={<WithClient>{(client) => <NewRule client={client} />}</WithClient>} />
      <Route
        path=":clientId/:ruleId"
        element={<WithClient>{(client, canChange) => <RulePage client={client} canChange={canChange} />}</WithClient>}
      />
      <Route path=":clientId/:ruleId/edit" element={<WithClient>{(client) => <EditRule client={client} />}</WithClient>} />
    </Routes>
  );
}

export const rulesPath = (clientId: string, ruleId?: string) =>
  ruleId === undefined
    ? `/programs/earning-rules?client=${encodeURIComponent(clientId)}`
    : `/programs/earning-rules/${encodeURIComponent(clientId)}/${encodeURIComponent(ruleId)}`;

function Crumbs({ children }: { children?: ReactNode }) {
  return (
    <p className="settings-breadcrumb">
      {t('rules.programs')} › <Link to="/programs/earning-rules">{t('rules.title')}</Link>
      {children}
    </p>
  );
}

/** The client a rule page is for, from the path; canChange: an owner or the client's program manager. */
function WithClient({ children }: { children: (client: ConsoleClient, canChange: boolean) => ReactNode }) {
  const { clientId } = useParams();
  const { me } = useSession();
  const clients = useClients();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  const client = clients.data.find((c) => c.id === clientId);
  if (!client) return <p>{t('error.noSuchPage')}</p>;
  return <>{children(client, me.owner || client.role === 'program_manager')}</>;
}

/** The rules of one client at a time (kept in ?client=, so a link can name one), then Try it. */
function RulesList() {
  const { me } = useSession();
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  const client = clients.data.find((c) => c.id === params.get('client')) ?? clients.data[0];
  return (
    <div className="stack">
      <Crumbs />
      <h1>{t('rules.title')}</h1>
      <p className="muted">{t('rules.intro')}</p>
      {client === undefined ? (
        <p>{t('rules.noClient')}</p>
      ) : (
        <>
          <ClientPicker label={t('rules.client')} clients={clients.data} chosen={client} onChoose={(id) => setParams({ client: id })} row />
          <ClientRules key={client.id} client={client} canChange={me.owner || client.role === 'program_manager'} />
        </>
      )}
    </div>
  );
}

/** On, off, or waiting for a version that begins later. */
function StateBadge({ view }: { view: EarningRuleView }) {
  const scheduled = view.inForce === null || view.inForce.version !== view.version;
  return (
    <>
      <span className={view.enabled ? 'badge badge--active' : 'badge badge--disabled'}>
        {view.enabled ? t('rules.state.enabled') : t('rules.state.disabled')}
      </span>
      {scheduled ? (
        <>
          <br />
          <span className="muted">{t('rules.state.from', { date: formatDateTime(view.effectiveFrom) })}</span>
        </>
      ) : null}
    </>
  );
}

function ClientRules({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const rules = useQuery({ queryKey: queryKeys.earningRules.ofClient(client.id), queryFn: () => getRules(client.id) });
  const headingId = useId();
  const columns = useMemo((): Columns<EarningRuleView> => {
    const col = columnHelper<EarningRuleView>();
    return [
      col.accessor((v) => v.rule.name, {
        id: 'name',
        header: t('rules.col.name'),
        cell: (c) => (
          <>
            <Link to={rulesPath(client.id, c.row.original.id)}>{c.getValue()}</Link>
            <br />
            <code className="muted">{c.row.original.id}</code>
          </>
        ),
      }),
      col.accessor('event', { header: t('rules.col.event'), cell: (c) => <code>{c.getValue()}</code> }),
      col.accessor((v) => earnText(v.rule), { id: 'earns', header: t('rules.col.earns') }),
      col.accessor('enabled', { header: t('rules.col.state'), cell: (c) => <StateBadge view={c.row.original} /> }),
      col.accessor((v) => validityText(v.rule), { id: 'valid', header: t('rules.col.valid') }),
      col.accessor((v) => budgetText(v), { id: 'budget', header: t('rules.col.budget') }),
    ];
  }, [client.id]);
  return (
    <>
      <section className="section" aria-labelledby={headingId}>
        <div className="page-head">
          <h2 id={headingId}>{client.name}</h2>
          {canChange ? (
            <Link className="button button--primary" to={`/programs/earning-rules/${encodeURIComponent(client.id)}/new`}>
              {t('rules.create')}
            </Link>
          ) : null}
        </div>
        <QueryView query={rules}>
          {(data) => (
            <DataTable
              columns={columns}
              rows={data.rules}
              caption={t('rules.caption', { client: client.name })}
              rowClass={(v) => (v.enabled ? undefined : 'row--muted')}
              empty={t('rules.none')}
            />
          )}
        </QueryView>
      </section>
      <EventTypes client={client} canChange={canChange} />
      <TryIt client={client} events={[...new Set(rules.data?.rules.map((r) => r.event) ?? [])]} />
    </>
  );
}

function NewRule({ client }: { client: ConsoleClient }) {
  const navigate = useNavigate();
  return (
    <div className="stack">
      <Crumbs> › {t('rules.newTitle')}</Crumbs>
      <h1>{t('rules.newTitle')}</h1>
      <p className="muted">{t('rules.newIntro', { client: client.name })}</p>
      <RuleEditor client={client} initial={NEW_RULE} onSaved={(view) => navigate(rulesPath(client.id, view.id))} />
    </div>
  );
}

function useRule(client: ConsoleClient) {
  const { ruleId = '' } = useParams();
  return {
    ruleId,
    rule: useQuery({ queryKey: queryKeys.earningRules.rule(client.id, ruleId), queryFn: () => getRule(client.id, ruleId) }),
  };
}

function EditRule({ client }: { client: ConsoleClient }) {
  const navigate = useNavigate();
  const { ruleId, rule } = useRule(client);
  return (
    <div className="stack">
      <QueryView query={rule}>
        {({ rule: view }) => (
          <>
            <Crumbs>
              {' › '}
              <Link to={rulesPath(client.id, ruleId)}>{view.rule.name}</Link> › {t('rules.edit')}
            </Crumbs>
            <h1>{t('rules.editTitle', { name: view.rule.name })}</h1>
            <p className="muted">{t('rules.editIntro', { version: view.version + 1 })}</p>
            {view.enabled ? null : <p className="notice">{t('rules.editDisabled')}</p>}
            <RuleEditor client={client} ruleId={ruleId} initial={view.rule} onSaved={() => navigate(rulesPath(client.id, ruleId))} />
          </>
        )}
      </QueryView>
    </div>
  );
}

function RulePage({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const { ruleId, rule } = useRule(client);
  const [toggling, setToggling] = useState(false);
  const [message, setMessage] = useState('');
  const toggle = useSetRuleState(client.id, ruleId);
  return (
    <div className="stack">
      <QueryView query={rule}>
        {({ rule: view, versions }) => (
          <>
            <Crumbs> › {view.rule.name}</Crumbs>
            <div className="page-head">
              <h1>{view.rule.name}</h1>
              {canChange ? (
                <div className="toolbar">
                  {/* A disabled rule is enabled before it is changed (decision 095). */}
                  {view.enabled ? (
                    <Link
                      className="button button--primary"
                      to={`/programs/earning-rules/${encodeURIComponent(client.id)}/${encodeURIComponent(ruleId)}/edit`}
                    >
                      {t('rules.edit')}
                    </Link>
                  ) : null}
                  <button type="button" className={view.enabled ? 'button button--danger' : 'button'} onClick={() => setToggling(true)}>
                    {view.enabled ? t('rules.disable') : t('rules.enable')}
                  </button>
                </div>
              ) : null}
            </div>
            <p role="status">{message}</p>
            <dl className="facts">
              <Fact label={t('rules.fact.state')}>
                <StateBadge view={view} />
              </Fact>
              <Fact label={t('rules.fact.id')}>
                <code>{view.id}</code>
              </Fact>
              <Fact label={t('rules.fact.event')}>
                <code>{view.event}</code>
              </Fact>
              <Fact label={t('rules.fact.earns')}>{earnText(view.rule)}</Fact>
              <Fact label={t('rules.fact.conditions')}>
                {view.rule.conditions.length === 0 ? (
                  t('rules.noConditions')
                ) : (
                  <ul className="rules-list">
                    {view.rule.conditions.map((c, i) => (
                      <li key={i}>{conditionText(c)}</li>
                    ))}
                  </ul>
                )}
              </Fact>
              <Fact label={t('rules.fact.valid')}>{validityText(view.rule)}</Fact>
              <Fact label={t('rules.fact.cap')}>{capText(view.rule)}</Fact>
              <Fact label={t('rules.fact.budget')}>{budgetText(view)}</Fact>
              <Fact label={t('rules.fact.pending')}>
                {view.rule.pendingDays === 0 ? t('rules.pending.none') : t('rules.pending.days', { days: view.rule.pendingDays })}
              </Fact>
              <Fact label={t('rules.fact.stacking')}>
                {t(`rules.stacking.${view.rule.stacking}`)} · {t('rules.priorityOf', { priority: view.rule.priority })}
              </Fact>
              <Fact label={t('rules.fact.version')}>
                {t('rules.versionOf', { version: view.version, date: formatDateTime(view.effectiveFrom) })}
                {view.inForce && view.inForce.version !== view.version ? (
                  <>
                    <br />
                    <span className="muted">{t('rules.inForceNow', { version: view.inForce.version })}</span>
                  </>
                ) : null}
              </Fact>
              <Fact label={t('rules.fact.texts')}>
                {Object.entries(view.rule.text).length === 0
                  ? '—'
                  : Object.entries(view.rule.text).map(([locale, text]) => (
                      <span key={locale} className="rules-text">
                        <code>{locale}</code> {text}
                      </span>
                    ))}
              </Fact>
            </dl>
            <details className="rules-json">
              <summary>{t('rules.showJson')}</summary>
              <pre>{JSON.stringify({ id: view.id, ...view.rule }, null, 2)}</pre>
            </details>
            <History versions={versions} ruleName={view.rule.name} />
            {toggling ? (
              <ReasonDialog
                title={t(view.enabled ? 'rules.disableTitle' : 'rules.enableTitle', { name: view.rule.name })}
                intro={<p>{t(view.enabled ? 'rules.disableIntro' : 'rules.enableIntro')}</p>}
                submitLabel={view.enabled ? t('rules.disable') : t('rules.enable')}
                danger={view.enabled}
                onClose={() => setToggling(false)}
                mutation={toggle}
                variables={(reason) => ({ enabled: !view.enabled, reason })}
                onDone={(reply) =>
                  setMessage(
                    t(reply.rule.enabled ? 'rules.enabledStatus' : 'rules.disabledStatus', {
                      name: view.rule.name,
                      version: reply.rule.version,
                    }),
                  )
                }
              />
            ) : null}
          </>
        )}
      </QueryView>
    </div>
  );
}

/** Every version, newest first: which rule an event of any time was computed with, and who changed what, when and why. */
function History({ versions, ruleName }: { versions: EarningRuleVersionView[]; ruleName: string }) {
  const headingId = useId();
  const rows = useMemo(() => [...versions].reverse(), [versions]);
  const columns = useMemo((): Columns<EarningRuleVersionView> => {
    const col = columnHelper<EarningRuleVersionView>();
    return [
      col.accessor('version', { header: t('rules.hist.version') }),
      col.accessor('effectiveFrom', { header: t('rules.hist.from'), cell: (c) => formatDateTime(c.getValue()) }),
      col.accessor('enabled', {
        header: t('rules.hist.state'),
        cell: (c) => (c.getValue() ? t('rules.state.enabled') : t('rules.state.disabled')),
      }),
      col.accessor((v) => (v.version === 1 ? t('rules.hist.created') : v.changed.join(', ') || t('rules.hist.stateOnly')), {
        id: 'changed',
        header: t('rules.hist.changed'),
      }),
      col.accessor((v) => earnText(v.rule), { id: 'earns', header: t('rules.col.earns') }),
      col.accessor('changedBy', {
        header: t('rules.hist.by'),
        cell: (c) => (
          <>
            <span className="rules-by">{c.getValue()}</span>
            <br />
            <span className="muted">{formatDateTime(c.row.original.changedAt)}</span>
          </>
        ),
      }),
      col.accessor('reason', { header: t('rules.hist.reason') }),
    ];
  }, []);
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('rules.history')}</h2>
      <DataTable columns={columns} rows={rows} caption={t('rules.historyCaption', { name: ruleName })} numeric={['version']} />
    </section>
  );
}
