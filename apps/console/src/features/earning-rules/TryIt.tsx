import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import { EarningEvent, earningRuleProblems, type EarningLine, type SimulationResult } from '@rewards/contract/earning-rules';
import { ConsoleApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { formatDateTime, formatNumber, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { getEventTypes } from './event-types-api.ts';
import { useSimulate } from './mutations.ts';

/** "category=shoes" lines into the event's attributes (a number stays text: the rules compare text). */
function attributesOf(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [n, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at <= 0) return t('rules.try.attributeLine', { line: n + 1 });
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/**
 * Try it (issue 32 §2): an event as a client's system would send it, and what it would earn under
 * the rules in force at its time, rule by rule: every condition met or not, the calculation, what
 * a cap, a budget or a better rule cut. The server computes it and writes nothing.
 */
export function TryIt({ client, events }: { client: ConsoleClient; events: readonly string[] }) {
  const headingId = useId();
  const listId = useId();
  const simulate = useSimulate(client.id);
  // The rules' types first, then the client's other types in use (decision 100); a return earns nothing.
  const types = useQuery({ queryKey: queryKeys.earningRules.eventTypes(client.id), queryFn: () => getEventTypes(client.id) });
  const offered = useMemo(
    () => [
      ...new Set([
        ...events,
        ...(types.data?.types ?? []).filter((type) => type.retired === null && type.name !== 'return').map((type) => type.name),
      ]),
    ],
    [events, types.data],
  );
  const [type, setType] = useState(events[0] ?? 'purchase');
  const [username, setUsername] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('');
  const [occurredAt, setOccurredAt] = useState('');
  const [attributes, setAttributes] = useState('');
  const [problem, setProblem] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const attrs = attributesOf(attributes);
    if (typeof attrs === 'string') return setProblem(attrs);
    const event = {
      type: type.trim(),
      ...(username.trim() ? { username: username.trim() } : {}),
      ...(amount.trim() ? { amount: amount.trim() } : {}),
      ...(currency.trim() ? { currency: currency.trim().toUpperCase() } : {}),
      // The browser's local time, sent with its offset as an instant.
      ...(occurredAt ? { occurredAt: new Date(occurredAt).toISOString() } : {}),
      ...(Object.keys(attrs).length > 0 ? { attributes: attrs } : {}),
    };
    const parsed = EarningEvent.safeParse(event);
    if (!parsed.success) return setProblem(earningRuleProblems(parsed.error).join('; '));
    setProblem('');
    simulate.mutate(parsed.data);
  };

  return (
    <section className="section rules-try" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('rules.try.title')}</h2>
      <p className="muted">{t('rules.try.intro')}</p>
      <form className="stack" onSubmit={submit}>
        <div className="rules-try-grid">
          <Field label={t('rules.try.type')}>
            {(id) => (
              <>
                <input id={id} list={listId} value={type} onChange={(e) => setType(e.target.value)} required />
                <datalist id={listId}>
                  {offered.map((ev) => (
                    <option key={ev} value={ev} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field label={t('rules.try.username')} hint={t('rules.try.usernameHint')}>
            {(id, hint) => <input id={id} aria-describedby={hint} value={username} onChange={(e) => setUsername(e.target.value)} />}
          </Field>
          <Field label={t('rules.try.amount')} hint={t('rules.try.amountHint')}>
            {(id, hint) => (
              <input id={id} aria-describedby={hint} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
            )}
          </Field>
          <Field label={t('rules.try.currency')}>
            {(id) => <input id={id} value={currency} maxLength={3} onChange={(e) => setCurrency(e.target.value)} />}
          </Field>
          <Field label={t('rules.try.occurredAt')} hint={t('rules.try.occurredAtHint')}>
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                type="datetime-local"
                value={occurredAt}
                onChange={(e) => setOccurredAt(e.target.value)}
              />
            )}
          </Field>
          <Field label={t('rules.try.attributes')} hint={t('rules.try.attributesHint')}>
            {(id, hint) => (
              <textarea id={id} aria-describedby={hint} rows={3} value={attributes} onChange={(e) => setAttributes(e.target.value)} />
            )}
          </Field>
        </div>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={simulate.isPending}>
            {simulate.isPending ? t('common.working') : t('rules.try.submit')}
          </button>
        </div>
        {problem ? (
          <p className="error" role="alert">
            {t('rules.try.invalid', { detail: problem })}
          </p>
        ) : null}
        {simulate.error instanceof ConsoleApiError &&
        simulate.error.status === 404 &&
        typeof simulate.error.params.username === 'string' ? (
          // The participant's page speaks of a username: so does this.
          <p className="error" role="alert">
            {t('rules.try.noParticipant', { username: simulate.error.params.username })}
          </p>
        ) : (
          <ErrorMessage error={simulate.error} />
        )}
      </form>
      {simulate.data && !simulate.isPending ? <TryResult result={simulate.data} /> : null}
    </section>
  );
}

function trimText(line: EarningLine): string {
  return line.trims.map((trim) => t(`rules.trim.${trim.by}`, { before: trim.before, after: trim.after, detail: trim.detail })).join('; ');
}

function TryResult({ result }: { result: SimulationResult }) {
  const columns = useMemo((): Columns<EarningLine> => {
    const col = columnHelper<EarningLine>();
    return [
      col.accessor('name', {
        header: t('rules.try.col.rule'),
        cell: (c) => (
          <>
            {c.getValue()}
            <br />
            <span className="muted">
              {t('rules.try.ruleVersion', { id: c.row.original.ruleId, version: c.row.original.version })}
              {c.row.original.kind === 'promotion' ? ` · ${t('rules.try.promotion')}` : ''}
            </span>
          </>
        ),
      }),
      col.accessor('conditions', {
        header: t('rules.try.col.conditions'),
        cell: (c) =>
          c.row.original.conditions.length === 0 ? (
            <span className="muted">{t('rules.noConditions')}</span>
          ) : (
            <ul className="rules-checks">
              {c.row.original.conditions.map((cond, i) => (
                <li key={i} className={cond.met ? 'rules__met' : 'neg'}>
                  {cond.met ? '✓' : '✗'} <code>{cond.condition}</code> <span className="muted">{cond.detail}</span>
                </li>
              ))}
            </ul>
          ),
      }),
      col.accessor('calculation', {
        header: t('rules.try.col.calculation'),
        cell: (c) => (
          <>
            {c.row.original.matched ? c.getValue() : <span className="muted">{t('rules.try.notMatched')}</span>}
            {c.row.original.trims.length > 0 ? (
              <>
                <br />
                <span className="muted">{trimText(c.row.original)}</span>
              </>
            ) : null}
            {c.row.original.pendingDays > 0 && c.row.original.points > 0 ? (
              <>
                <br />
                <span className="muted">{t('rules.pending.days', { days: c.row.original.pendingDays })}</span>
              </>
            ) : null}
          </>
        ),
      }),
      col.accessor('points', { header: t('rules.try.col.points'), cell: (c) => formatNumber(c.getValue()) }),
    ];
  }, []);
  return (
    <div className="stack" data-testid="try-result">
      <p className="rules-total" role="status">
        {t('rules.try.total', { points: formatNumber(result.total) })}
        {result.pending > 0 ? ` ${t('rules.try.pendingPart', { points: formatNumber(result.pending) })}` : ''}
        <span className="muted">
          {' '}
          {t('rules.try.when', {
            time: formatDateTime(result.event.occurredAt),
            day: result.localDay,
            weekday: t(`rules.day.${result.dayOfWeek}`),
            zone: result.timeZone,
          })}
        </span>
      </p>
      <DataTable
        columns={columns}
        rows={result.lines}
        caption={t('rules.try.caption')}
        numeric={['points']}
        rowClass={(line) => (line.matched && line.points > 0 ? undefined : 'row--muted')}
        empty={t('rules.try.noRules', { type: result.event.type })}
      />
    </div>
  );
}
