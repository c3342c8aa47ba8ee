import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import { DeclaredEventTypeName, type EventTypeView } from '@rewards/contract/console-event-types';
import { earningRuleProblems } from '@rewards/contract/earning-rules';
import { queryKeys } from '../../api/query-keys.ts';
import { formatDate, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { getEventTypes, useDeclareEventType, useRetireEventType } from './event-types-api.ts';

/**
 * Programs → Earning rules → Event types (issue 32 §1, decision 100): what the client's systems
 * may send. purchase and return built in; others declared with what they mean, or earned on by a
 * rule; each with the rules that earn on it, and retired with a reason (events of it refused from
 * then on). Every role reads; program managers and owners declare and retire (the server refuses
 * the others).
 */
export function EventTypes({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const headingId = useId();
  const types = useQuery({ queryKey: queryKeys.earningRules.eventTypes(client.id), queryFn: () => getEventTypes(client.id) });
  const [retiring, setRetiring] = useState<EventTypeView | null>(null);
  const declare = useDeclareEventType(client.id);
  const [message, setMessage] = useState('');
  const columns = useMemo((): Columns<EventTypeView> => {
    const col = columnHelper<EventTypeView>();
    return [
      col.accessor('name', { header: t('eventTypes.col.name'), cell: (c) => <code>{c.getValue()}</code> }),
      col.accessor('origin', {
        header: t('eventTypes.col.origin'),
        cell: (c) => {
          const v = c.row.original;
          if (v.origin === 'built-in') return t('eventTypes.origin.builtIn');
          if (v.origin === 'rule') return t('eventTypes.origin.rule');
          return t('eventTypes.origin.declared', { date: formatDate(v.declaredAt), by: v.declaredBy ?? '' });
        },
      }),
      col.accessor('description', { header: t('eventTypes.col.description'), cell: (c) => c.getValue() || '—' }),
      col.accessor((v) => (v.rules.length === 0 ? t('eventTypes.noRules') : v.rules.join(', ')), {
        id: 'rules',
        header: t('eventTypes.col.rules'),
      }),
      col.accessor((v) => (v.retired ? 'retired' : 'inUse'), {
        id: 'state',
        header: t('eventTypes.col.state'),
        cell: (c) => {
          const v = c.row.original;
          if (!v.retired) return <span className="badge badge--active">{t('eventTypes.state.inUse')}</span>;
          return (
            <>
              <span className="badge badge--disabled">{t('eventTypes.state.retired')}</span>
              <br />
              <span className="muted">
                {t('eventTypes.state.retiredOn', { date: formatDate(v.retired.at), by: v.retired.by, reason: v.retired.reason })}
              </span>
            </>
          );
        },
      }),
      ...(canChange
        ? [
            col.display({
              id: 'actions',
              header: t('eventTypes.col.actions'),
              cell: (c) => {
                const v = c.row.original;
                return v.origin === 'built-in' || v.retired ? null : (
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={t('eventTypes.retireTitle', { name: v.name })}
                    onClick={() => setRetiring(v)}
                  >
                    {t('eventTypes.retire')}
                  </button>
                );
              },
            }),
          ]
        : []),
    ];
  }, [canChange]);
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('eventTypes.title')}</h2>
      <p className="muted">{t('eventTypes.intro')}</p>
      <p role="status">{message}</p>
      <QueryView query={types}>
        {(data) => (
          <DataTable
            columns={columns}
            rows={data.types}
            caption={t('eventTypes.caption', { client: client.name })}
            rowClass={(v) => (v.retired ? 'row--muted' : undefined)}
          />
        )}
      </QueryView>
      {canChange ? <DeclareForm declare={declare} onDeclared={(name) => setMessage(t('eventTypes.declared', { name }))} /> : null}
      {retiring ? (
        <RetireDialog
          clientId={client.id}
          type={retiring}
          onClose={() => setRetiring(null)}
          onDone={(name) => {
            // The form's last refusal is about a list that has changed since.
            declare.reset();
            setMessage(t('eventTypes.retiredStatus', { name }));
          }}
        />
      ) : null}
    </section>
  );
}

/** A name and what it means; the name is checked as typed with the contract's own rule (the server's). */
function DeclareForm({ declare, onDeclared }: { declare: ReturnType<typeof useDeclareEventType>; onDeclared: (name: string) => void }) {
  const headingId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const parsed = DeclaredEventTypeName.safeParse(name);
  const problem = name.trim() === '' || parsed.success ? '' : earningRuleProblems(parsed.error).join('; ');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!parsed.success || declare.isPending) return;
    declare.mutate(
      { name: parsed.data, description: description.trim() },
      {
        onSuccess: (reply) => {
          onDeclared(reply.type.name);
          setName('');
          setDescription('');
        },
      },
    );
  };
  return (
    <form className="stack" aria-labelledby={headingId} onSubmit={submit}>
      <h3 id={headingId}>{t('eventTypes.declareTitle')}</h3>
      <div className="rules-try-grid">
        <Field label={t('eventTypes.name')} hint={problem || t('eventTypes.nameHint')}>
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              aria-invalid={problem !== ''}
              value={name}
              maxLength={128}
              onChange={(e) => {
                declare.reset();
                setName(e.target.value);
              }}
              required
            />
          )}
        </Field>
        <Field label={t('eventTypes.description')} hint={t('eventTypes.descriptionHint')}>
          {(id, hint) => (
            <input id={id} aria-describedby={hint} value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
          )}
        </Field>
      </div>
      <ErrorMessage error={declare.error} />
      <div>
        <button type="submit" className="button button--primary" disabled={!parsed.success || declare.isPending}>
          {t('eventTypes.declare')}
        </button>
      </div>
    </form>
  );
}

function RetireDialog({
  clientId,
  type,
  onClose,
  onDone,
}: {
  clientId: string;
  type: EventTypeView;
  onClose: () => void;
  onDone: (name: string) => void;
}) {
  const retire = useRetireEventType(clientId, type.name);
  return (
    <ReasonDialog
      title={t('eventTypes.retireTitle', { name: type.name })}
      intro={
        <>
          <p>{t('eventTypes.retireIntro', { name: type.name })}</p>
          {type.rules.length > 0 ? <p className="muted">{t('eventTypes.rulesOnIt', { rules: type.rules.join(', ') })}</p> : null}
        </>
      }
      submitLabel={t('eventTypes.retire')}
      danger
      onClose={onClose}
      mutation={retire}
      variables={(reason) => ({ reason })}
      onDone={(reply) => onDone(reply.type.name)}
    />
  );
}
