import { useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import type { ConsoleEarningRuleChangeReply } from '@rewards/contract/console-earning-rules';
import { EARNING_CAP_PERIODS, EARNING_ROUNDINGS, EarningCondition, EarningRule } from '@rewards/contract/earning-rules';
import { queryKeys } from '../../api/query-keys.ts';
import { t } from '../../i18n/t.ts';
import { Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { getEventTypes } from './event-types-api.ts';
import { useCreateRule, useUpdateRule } from './mutations.ts';
import { conditionText } from './words.ts';

/** The rule being written: the JSON as a file holds it, possibly not (yet) a valid rule. */
type Draft = Record<string, unknown>;

/** A new rule's start: 1 point per 1.00 of a purchase. */
export const NEW_RULE: Draft = {
  name: '',
  event: 'purchase',
  conditions: [],
  earn: { pointsPer: 1, per: '1.00', rounding: 'down' },
  caps: {},
  pendingDays: 0,
  validFrom: null,
  validUntil: null,
  priority: 0,
  stacking: 'add',
  text: {},
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The draft with `value` at `path` (undefined removes the key), copied along the path. */
function setAt(draft: Draft, path: readonly string[], value: unknown): Draft {
  const [head, ...rest] = path;
  if (head === undefined) return draft;
  const next = { ...draft };
  if (rest.length === 0) {
    if (value === undefined) delete next[head];
    else next[head] = value;
    return next;
  }
  const inner = isObject(draft[head]) ? draft[head] : {};
  next[head] = setAt(inner, rest, value);
  return next;
}

function getAt(draft: Draft, path: readonly string[]): unknown {
  let value: unknown = draft;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/** A number field's text as the rule holds it: empty is left out, a whole number a number, anything else as typed (the schema says why not). */
function numberOf(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d{1,12}$/.test(trimmed) ? Number(trimmed) : trimmed;
}
const textOf = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The rule's problems by where they are ("earn.per"), from the contract's own schema: what the server will say. */
function problemsOf(draft: Draft): Map<string, string[]> {
  const parsed = EarningRule.safeParse(draft);
  const found = new Map<string, string[]>();
  if (parsed.success) return found;
  for (const issue of parsed.error.issues) {
    const where = issue.path.map(String).join('.');
    found.set(where, [...(found.get(where) ?? []), issue.message]);
  }
  return found;
}

type EarnKind = 'points' | 'pointsPer' | 'multiply';
const EARN_STARTS: Record<EarnKind, Draft> = {
  points: { points: 10 },
  pointsPer: { pointsPer: 1, per: '1.00', rounding: 'down' },
  multiply: { multiply: '2', rounding: 'down' },
};
function earnKindOf(draft: Draft): EarnKind {
  const earn = getAt(draft, ['earn']);
  if (isObject(earn) && earn.multiply !== undefined) return 'multiply';
  if (isObject(earn) && earn.points !== undefined) return 'points';
  return 'pointsPer';
}

/**
 * A rule, as a form of its common fields or as its whole JSON (the same draft: switch at any
 * time), checked as it is typed by the contract's schema, the one the server checks with, each
 * problem shown where it is. Saved with a reason: a new rule, or the rule's next version.
 */
export function RuleEditor({
  client,
  ruleId,
  initial,
  onSaved,
}: {
  client: ConsoleClient;
  /** The rule changed; a new one when undefined. */
  ruleId?: string;
  initial: Draft;
  onSaved: (view: ConsoleEarningRuleChangeReply['rule']) => void;
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [json, setJson] = useState('');
  const [jsonError, setJsonError] = useState('');
  const [saving, setSaving] = useState(false);
  /** When the version begins (the browser's local time); empty: when saved. */
  const [startsAt, setStartsAt] = useState('');
  const create = useCreateRule(client.id);
  const update = useUpdateRule(client.id, ruleId ?? '');
  const problems = useMemo(() => problemsOf(draft), [draft]);
  const valid = problems.size === 0 && jsonError === '';
  // The client's event types in use, offered in the event field (decision 100); a rule may still name a new one.
  const types = useQuery({ queryKey: queryKeys.earningRules.eventTypes(client.id), queryFn: () => getEventTypes(client.id) });
  const eventTypes = useMemo(
    () => (types.data?.types ?? []).filter((type) => type.retired === null && type.name !== 'return').map((type) => type.name),
    [types.data],
  );

  const showJson = () => {
    setJson(JSON.stringify(draft, null, 2));
    setJsonError('');
    setMode('json');
  };
  const onJson = (text: string) => {
    setJson(text);
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isObject(parsed)) throw new Error(t('rules.json.notObject'));
      // An "id" in a pasted file names the rule; this page already does.
      const { id: _id, ...rule } = parsed;
      setDraft(rule);
      setJsonError('');
    } catch (error) {
      setJsonError(error instanceof Error ? error.message : String(error));
    }
  };
  const set = (path: readonly string[], value: unknown) => setDraft((d) => setAt(d, path, value));

  return (
    <div className="stack">
      <div className="segmented rules-modes" role="group" aria-label={t('rules.mode')}>
        <button
          type="button"
          className="button button--small"
          aria-pressed={mode === 'form'}
          disabled={jsonError !== ''}
          onClick={() => setMode('form')}
        >
          {t('rules.mode.form')}
        </button>
        <button type="button" className="button button--small" aria-pressed={mode === 'json'} onClick={showJson}>
          {t('rules.mode.json')}
        </button>
      </div>
      {mode === 'form' ? (
        <RuleForm draft={draft} set={set} problems={problems} fixedEvent={ruleId !== undefined} eventTypes={eventTypes} />
      ) : (
        <div className="stack">
          <Field label={t('rules.json.label')} hint={t('rules.json.hint')}>
            {(id, hint) => (
              <textarea
                id={id}
                aria-describedby={hint}
                className="rules-json-input"
                spellCheck={false}
                rows={24}
                value={json}
                aria-invalid={!valid}
                onChange={(e) => onJson(e.target.value)}
              />
            )}
          </Field>
          {jsonError ? (
            <p className="error" role="alert">
              {t('rules.json.syntax', { detail: jsonError })}
            </p>
          ) : (
            <ProblemList problems={problems} />
          )}
        </div>
      )}
      <div className="actions">
        <button type="button" className="button button--primary" disabled={!valid} onClick={() => setSaving(true)}>
          {ruleId === undefined ? t('rules.save.create') : t('rules.save.update')}
        </button>
        {valid ? (
          <span className="muted">{t('rules.valid')}</span>
        ) : (
          <span className="muted">{t('rules.notValid', { count: problems.size || 1 })}</span>
        )}
      </div>
      {saving ? (
        <ReasonDialog
          title={ruleId === undefined ? t('rules.save.createTitle') : t('rules.save.updateTitle')}
          intro={<p>{ruleId === undefined ? t('rules.save.createIntro') : t('rules.save.updateIntro')}</p>}
          submitLabel={ruleId === undefined ? t('rules.save.create') : t('rules.save.update')}
          onClose={() => setSaving(false)}
          mutation={ruleId === undefined ? create : update}
          variables={(reason) => ({ rule: draft, reason, ...(startsAt ? { effectiveFrom: new Date(startsAt).toISOString() } : {}) })}
          onDone={(reply) => onSaved(reply.rule)}
        >
          <Field label={t('rules.save.startsAt')} hint={t('rules.save.startsAtHint')}>
            {(id, hint) => (
              <input id={id} aria-describedby={hint} type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
            )}
          </Field>
        </ReasonDialog>
      ) : null}
    </div>
  );
}

/** Every problem of the rule with its place in the JSON. */
function ProblemList({ problems }: { problems: Map<string, string[]> }) {
  if (problems.size === 0) return null;
  return (
    <ul className="rules-problems" aria-label={t('rules.problems')}>
      {[...problems].flatMap(([where, messages]) =>
        messages.map((message) => (
          <li key={`${where}:${message}`}>
            <code>{where === '' ? t('rules.problemRule') : where}</code> {message}
          </li>
        )),
      )}
    </ul>
  );
}

/** The problems at a place and under it ("caps.budget" takes "caps.budget.points"), next to its field. */
function Problems({ problems, at, exact = false }: { problems: Map<string, string[]>; at: readonly string[]; exact?: boolean }) {
  const mine = [...problems]
    .filter(([where]) => at.some((a) => where === a || (!exact && where.startsWith(`${a}.`))))
    .flatMap(([, m]) => m);
  if (mine.length === 0) return null;
  return (
    <p className="error rules-field-problem" role="alert">
      {mine.join(' · ')}
    </p>
  );
}

function FieldWithProblems({ children, problems, at }: { children: ReactNode; problems: Map<string, string[]>; at: readonly string[] }) {
  return (
    <div>
      {children}
      <Problems problems={problems} at={at} />
    </div>
  );
}

function RuleForm({
  draft,
  set,
  problems,
  fixedEvent,
  eventTypes,
}: {
  draft: Draft;
  set: (path: readonly string[], value: unknown) => void;
  problems: Map<string, string[]>;
  fixedEvent: boolean;
  /** The client's event types, offered in the event field. */
  eventTypes: readonly string[];
}) {
  const kind = earnKindOf(draft);
  const kindName = useId();
  const typeListId = useId();
  const has = (path: string) => [...problems.keys()].some((w) => w === path || w.startsWith(`${path}.`));
  const cap = getAt(draft, ['caps', 'participant']);
  const conditions = Array.isArray(draft.conditions) ? draft.conditions : [];
  const texts = isObject(draft.text) ? draft.text : {};
  const locale = 'en-US';

  const input = (
    label: string,
    path: readonly string[],
    options: { hint?: string; number?: boolean; type?: string; disabled?: boolean; list?: string } = {},
  ) => (
    <FieldWithProblems problems={problems} at={[path.join('.')]}>
      <Field label={label} {...(options.hint === undefined ? {} : { hint: options.hint })}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            type={options.type ?? 'text'}
            inputMode={options.number ? 'numeric' : undefined}
            disabled={options.disabled}
            list={options.list}
            aria-invalid={has(path.join('.'))}
            value={textOf(getAt(draft, path))}
            onChange={(e) =>
              set(
                path,
                options.number ? numberOf(e.target.value) : options.type === 'date' && e.target.value === '' ? null : e.target.value,
              )
            }
          />
        )}
      </Field>
    </FieldWithProblems>
  );

  return (
    <div className="stack rules-form">
      <div className="grid2">
        {input(t('rules.f.name'), ['name'])}
        {input(t('rules.f.event'), ['event'], {
          hint: fixedEvent ? t('rules.f.eventFixed') : t('rules.f.eventHint'),
          disabled: fixedEvent,
          list: typeListId,
        })}
        <datalist id={typeListId}>
          {eventTypes.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
      </div>
      <fieldset>
        <legend>{t('rules.f.earn')}</legend>
        <div className="segmented rules-kinds">
          {(['pointsPer', 'points', 'multiply'] as const).map((k) => (
            <label key={k} className="check">
              <input type="radio" name={kindName} checked={kind === k} onChange={() => set(['earn'], EARN_STARTS[k])} />
              <span>{t(`rules.f.kind.${k}`)}</span>
            </label>
          ))}
        </div>
        <div className="grid2">
          {kind === 'points' ? input(t('rules.f.points'), ['earn', 'points'], { number: true }) : null}
          {kind === 'pointsPer' ? (
            <>
              {input(t('rules.f.pointsPer'), ['earn', 'pointsPer'], { number: true })}
              {input(t('rules.f.per'), ['earn', 'per'], { hint: t('rules.f.perHint') })}
              {input(t('rules.f.currency'), ['earn', 'currency'], { hint: t('rules.f.currencyHint') })}
            </>
          ) : null}
          {kind === 'multiply' ? input(t('rules.f.multiply'), ['earn', 'multiply'], { hint: t('rules.f.multiplyHint') }) : null}
          {kind === 'points' ? null : (
            <FieldWithProblems problems={problems} at={['earn.rounding']}>
              <Field label={t('rules.f.rounding')}>
                {(id) => (
                  <select
                    id={id}
                    value={textOf(getAt(draft, ['earn', 'rounding'])) || 'down'}
                    onChange={(e) => set(['earn', 'rounding'], e.target.value)}
                  >
                    {EARNING_ROUNDINGS.map((r) => (
                      <option key={r} value={r}>
                        {t(`rules.rounding.${r}`)}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </FieldWithProblems>
          )}
        </div>
        <Problems problems={problems} at={['earn']} exact />
      </fieldset>
      <fieldset>
        <legend>{t('rules.f.conditions')}</legend>
        <ConditionsEditor conditions={conditions} set={(next) => set(['conditions'], next)} problems={problems} />
      </fieldset>
      <fieldset>
        <legend>{t('rules.f.limits')}</legend>
        <div className="grid2">
          <FieldWithProblems problems={problems} at={['caps.participant']}>
            <Field label={t('rules.f.cap')} hint={t('rules.f.capHint')}>
              {(id, hint) => (
                <div className="rules-inline">
                  <input
                    id={id}
                    aria-describedby={hint}
                    inputMode="numeric"
                    value={isObject(cap) ? textOf(cap.points) : ''}
                    aria-invalid={has('caps.participant')}
                    onChange={(e) => {
                      const points = numberOf(e.target.value);
                      set(['caps', 'participant'], points === undefined ? undefined : { points, per: isObject(cap) ? cap.per : 'month' });
                    }}
                  />
                  <select
                    aria-label={t('rules.f.capPer')}
                    value={isObject(cap) ? textOf(cap.per) : 'month'}
                    disabled={!isObject(cap)}
                    onChange={(e) => set(['caps', 'participant', 'per'], e.target.value)}
                  >
                    {EARNING_CAP_PERIODS.map((p) => (
                      <option key={p} value={p}>
                        {t(`rules.f.capPer.${p}`)}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </Field>
          </FieldWithProblems>
          <FieldWithProblems problems={problems} at={['caps.budget']}>
            <Field label={t('rules.f.budget')} hint={t('rules.f.budgetHint')}>
              {(id, hint) => (
                <input
                  id={id}
                  aria-describedby={hint}
                  inputMode="numeric"
                  value={textOf(getAt(draft, ['caps', 'budget', 'points']))}
                  aria-invalid={has('caps.budget')}
                  onChange={(e) => {
                    const points = numberOf(e.target.value);
                    set(['caps', 'budget'], points === undefined ? undefined : { points });
                  }}
                />
              )}
            </Field>
          </FieldWithProblems>
          {input(t('rules.f.pendingDays'), ['pendingDays'], { number: true, hint: t('rules.f.pendingHint') })}
        </div>
      </fieldset>
      <fieldset>
        <legend>{t('rules.f.when')}</legend>
        <div className="grid2">
          {input(t('rules.f.validFrom'), ['validFrom'], { type: 'date', hint: t('rules.f.validHint') })}
          {input(t('rules.f.validUntil'), ['validUntil'], { type: 'date', hint: t('rules.f.validHint') })}
          {input(t('rules.f.priority'), ['priority'], { number: true, hint: t('rules.f.priorityHint') })}
          <FieldWithProblems problems={problems} at={['stacking']}>
            <Field label={t('rules.f.stacking')}>
              {(id) => (
                <select id={id} value={textOf(draft.stacking) || 'add'} onChange={(e) => set(['stacking'], e.target.value)}>
                  <option value="add">{t('rules.stacking.add')}</option>
                  <option value="best">{t('rules.stacking.best')}</option>
                </select>
              )}
            </Field>
          </FieldWithProblems>
        </div>
      </fieldset>
      <FieldWithProblems problems={problems} at={['text']}>
        <Field label={t('rules.f.text', { locale })} hint={t('rules.f.textHint')}>
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={textOf(texts[locale])}
              onChange={(e) => set(['text', locale], e.target.value === '' ? undefined : e.target.value)}
            />
          )}
        </Field>
      </FieldWithProblems>
      <Problems problems={problems} at={['']} />
    </div>
  );
}

type AttributeTest = 'in' | 'notIn' | 'equals';
const ATTRIBUTE_TESTS: readonly AttributeTest[] = ['in', 'notIn', 'equals'];
const valuesOf = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/**
 * The conditions: attribute and amount conditions in fields (the ones most rules have); the
 * others (programs, status, days, dates) in words, written in the JSON view. Each row's problems
 * next to it.
 */
function ConditionsEditor({
  conditions,
  set,
  problems,
}: {
  conditions: readonly unknown[];
  set: (next: unknown[]) => void;
  problems: Map<string, string[]>;
}) {
  // Rows are keyed by this and their place: removing one starts the fields after it afresh.
  const [generation, setGeneration] = useState(0);
  const change = (i: number, next: unknown) => set(conditions.map((c, j) => (j === i ? next : c)));
  const remove = (i: number) => {
    setGeneration((g) => g + 1);
    set(conditions.filter((_, j) => j !== i));
  };
  const add = (condition: Draft) => {
    setGeneration((g) => g + 1);
    set([...conditions, condition]);
  };
  return (
    <div className="stack">
      {conditions.length === 0 ? <p className="muted">{t('rules.noConditions')}</p> : null}
      {conditions.map((c, i) => {
        const n = i + 1;
        const row = isObject(c) ? c : {};
        const removeButton = (
          <button type="button" className="button button--small" aria-label={t('rules.cond.removeOf', { n })} onClick={() => remove(i)}>
            {t('rules.cond.remove')}
          </button>
        );
        let body: ReactNode;
        if (typeof row.attribute === 'string') {
          const test: AttributeTest = row.notIn !== undefined ? 'notIn' : row.equals !== undefined ? 'equals' : 'in';
          const current = row[test];
          const text = Array.isArray(current) ? current.join(', ') : textOf(current);
          const withTest = (next: AttributeTest, values: string) => {
            const list = valuesOf(values);
            return { attribute: row.attribute, [next]: next === 'equals' ? (list[0] ?? '') : list };
          };
          body = (
            <div className="rules-condition">
              <input
                aria-label={t('rules.cond.attributeOf', { n })}
                placeholder={t('rules.cond.attributePlaceholder')}
                value={textOf(row.attribute)}
                onChange={(e) => change(i, { ...row, attribute: e.target.value })}
              />
              <select
                aria-label={t('rules.cond.testOf', { n })}
                value={test}
                onChange={(e) => change(i, withTest(e.target.value as AttributeTest, text))}
              >
                {ATTRIBUTE_TESTS.map((k) => (
                  <option key={k} value={k}>
                    {t(`rules.cond.test.${k}`)}
                  </option>
                ))}
              </select>
              <input
                aria-label={t('rules.cond.valuesOf', { n })}
                placeholder={t('rules.cond.valuesPlaceholder')}
                defaultValue={text}
                onChange={(e) => change(i, withTest(test, e.target.value))}
              />
              {removeButton}
            </div>
          );
        } else if (isObject(row.amount)) {
          const amount = row.amount;
          const bound = (key: 'atLeast' | 'atMost', value: string) => {
            const next: Draft = { ...amount };
            if (value.trim() === '') delete next[key];
            else next[key] = value.trim();
            change(i, { amount: next });
          };
          body = (
            <div className="rules-condition">
              <span>{t('rules.cond.amountLabel')}</span>
              <input
                aria-label={t('rules.cond.atLeastOf', { n })}
                placeholder={t('rules.cond.atLeastPlaceholder')}
                inputMode="decimal"
                value={textOf(amount.atLeast)}
                onChange={(e) => bound('atLeast', e.target.value)}
              />
              <input
                aria-label={t('rules.cond.atMostOf', { n })}
                placeholder={t('rules.cond.atMostPlaceholder')}
                inputMode="decimal"
                value={textOf(amount.atMost)}
                onChange={(e) => bound('atMost', e.target.value)}
              />
              {removeButton}
            </div>
          );
        } else {
          const parsed = EarningCondition.safeParse(c);
          body = (
            <div className="rules-condition">
              <span>{parsed.success ? conditionText(parsed.data) : JSON.stringify(c)}</span>
              <span className="muted">{t('rules.cond.inJson')}</span>
              {removeButton}
            </div>
          );
        }
        return (
          <div key={`${generation}-${i}`}>
            {body}
            <Problems problems={problems} at={[`conditions.${i}`]} />
          </div>
        );
      })}
      <div className="toolbar">
        <button type="button" className="button button--small" onClick={() => add({ attribute: '', in: [] })}>
          {t('rules.cond.addAttribute')}
        </button>
        <button type="button" className="button button--small" onClick={() => add({ amount: { atLeast: '10.00' } })}>
          {t('rules.cond.addAmount')}
        </button>
      </div>
      <p className="field__hint">{t('rules.f.conditionsHint')}</p>
      <Problems problems={problems} at={['conditions']} exact />
    </div>
  );
}
