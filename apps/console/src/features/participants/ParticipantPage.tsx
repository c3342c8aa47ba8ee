import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { ConsoleParticipant, ConsoleStatementEntry } from '@rewards/contract/console-participants';
import { formatDate, formatDateTime, formatNumber, formatSigned, hasMessage, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ErrorMessage } from '../../ui/Form.tsx';
import { roleName, statusName } from '../../ui/labels.ts';
import { AuditTable } from '../../ui/AuditTable.tsx';
import { ActionDialog, type ActionName } from './actions.tsx';
import { useParticipant, useStatement } from './queries.ts';
import { Fact } from '../../ui/Fact.tsx';
import { EventsSection } from './EventsSection.tsx';

/**
 * The participant's page: who they are, what they hold and did, what support did about them —
 * and the actions the caller's role allows (`can`, decided by the server, which checks again).
 */
export default function ParticipantPage() {
  const { clientId = '', participantId = '' } = useParams();
  const participant = useParticipant(clientId, participantId);
  if (participant.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (participant.isError) {
    return (
      <div className="stack">
        <ErrorMessage error={participant.error} />
        <Link to="/participants">{t('participant.back')}</Link>
      </div>
    );
  }
  return <Loaded p={participant.data} />;
}

const ACTIONS: Array<{ name: ActionName; can: keyof ConsoleParticipant['can']; label: Parameters<typeof t>[0] }> = [
  { name: 'launchAs', can: 'launchAs', label: 'action.launchAs' },
  { name: 'adjust', can: 'adjust', label: 'action.adjust' },
  { name: 'status', can: 'changeStatus', label: 'action.status' },
  { name: 'unlock', can: 'unlock', label: 'action.unlock' },
  { name: 'endSessions', can: 'endSessions', label: 'action.endSessions' },
  { name: 'resendMail', can: 'resendMail', label: 'action.resendMail' },
  { name: 'details', can: 'correctDetails', label: 'action.details' },
];

function Loaded({ p }: { p: ConsoleParticipant }) {
  const { identity: id, client } = p;
  const navigate = useNavigate();
  const [action, setAction] = useState<ActionName | null>(null);
  const [message, setMessage] = useState('');
  const allowed = ACTIONS.filter((a) => p.can[a.can]);
  const name = `${id.firstName} ${id.lastName}`.trim() || id.username;

  return (
    <div className="stack participant">
      <p className="crumbs">
        <Link
          to="/participants"
          onClick={(e) => {
            // Back to the results as they were, when the search led here (React Router counts its entries in history.state.idx).
            if ((window.history.state as { idx?: number } | null)?.idx) {
              e.preventDefault();
              navigate(-1);
            }
          }}
        >
          {t('participant.back')}
        </Link>
      </p>
      <header className="participant__head">
        <div>
          <h1>
            {name} <span className={`badge badge--${id.status}`}>{statusName(id.status)}</span>
          </h1>
          <p className="muted">
            {id.username} · {id.email} · {client.name} · {t('participant.yourRole', { role: roleName(p.role) })}
          </p>
        </div>
        <div className="balance">
          <span className="balance__label">{t('participant.balance')}</span>
          <span className="balance__value" data-testid="balance">
            {formatNumber(p.balance)}
          </span>
          <span className="muted">{client.currencyName}</span>
        </div>
      </header>
      {allowed.length > 0 ? (
        <div className="toolbar" role="group" aria-label={t('participant.actions')}>
          {allowed.map((a) => (
            <button
              key={a.name}
              type="button"
              className={a.name === 'adjust' ? 'button button--primary' : 'button'}
              onClick={() => setAction(a.name)}
            >
              {t(a.label)}
            </button>
          ))}
        </div>
      ) : (
        <p className="muted">{t('participant.readOnly')}</p>
      )}
      <p role="status" className={message ? 'notice' : 'visually-hidden'}>
        {message}
      </p>
      {action ? <ActionDialog action={action} participant={p} onClose={() => setAction(null)} onDone={setMessage} /> : null}

      <div className="columns">
        <Section title={t('participant.identity')}>
          <dl className="facts">
            <Fact label={t('participant.username')}>{id.username}</Fact>
            <Fact label={t('participant.email')}>{id.email}</Fact>
            <Fact label={t('participant.accountNumber')}>{id.accountNumber || '—'}</Fact>
            <Fact label={t('participant.dateOfBirth')}>{formatDate(id.dateOfBirth)}</Fact>
            <Fact label={t('participant.language')}>{id.locale}</Fact>
            <Fact label={t('participant.created')}>{formatDateTime(id.createdAt)}</Fact>
            <Fact label={t('participant.programs')}>{id.programs.join(', ') || '—'}</Fact>
            <Fact label={t('participant.offerings')}>
              {[
                id.offerings.merchandise && t('offering.merchandise'),
                id.offerings.experiences && t('offering.experiences'),
                id.offerings.ots && t('offering.ots'),
              ]
                .filter(Boolean)
                .join(', ') || '—'}
            </Fact>
            <Fact label={t('participant.privacy')}>
              {id.privacyAcknowledged >= id.privacyCurrent && id.privacyCurrent > 0
                ? t('participant.privacyCurrent', { version: id.privacyAcknowledged })
                : t('participant.privacyBehind', { acknowledged: id.privacyAcknowledged, current: id.privacyCurrent })}
            </Fact>
          </dl>
        </Section>
        <Section title={t('participant.signIns')}>
          <dl className="facts">
            <Fact label={t('participant.lastSignIn')}>{formatDateTime(p.signIns.lastSignInAt)}</Fact>
          </dl>
          <LimitsTable limits={p.signIns.limits} />
          <h3>{t('participant.sessions')}</h3>
          <SessionsTable sessions={p.sessions} />
        </Section>
      </div>

      <Section title={t('participant.statement')}>
        <Statement clientId={client.id} participantId={id.id} />
      </Section>
      <Section title={t('participant.events')}>
        <EventsSection clientId={client.id} participantId={id.id} />
      </Section>
      <div className="columns">
        <Section title={t('participant.codes')}>
          <CodesTable codes={p.codes} />
        </Section>
        <Section title={t('participant.orders')}>
          <OrdersTable orders={p.orders} />
        </Section>
      </div>
      <Section title={t('participant.mails')}>
        <MailsTable mails={p.mails} />
      </Section>
      <Section title={t('participant.contact')}>
        <ContactTable messages={p.contactMessages} />
      </Section>
      <Section title={t('participant.audit')}>
        <AuditTable entries={p.audit} caption={t('participant.audit')} subject={false} />
        <Link to={`/audit?clientId=${encodeURIComponent(client.id)}&participantId=${encodeURIComponent(id.id)}`}>
          {t('participant.allAudit')}
        </Link>
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="section" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

const st = columnHelper<ConsoleStatementEntry>();
function Statement({ clientId, participantId }: { clientId: string; participantId: string }) {
  const statement = useStatement(clientId, participantId);
  const columns = useMemo<Columns<ConsoleStatementEntry>>(
    () => [
      st.accessor('date', { header: t('statement.date'), cell: (i) => formatDateTime(i.getValue()) }),
      st.accessor('description', {
        header: t('statement.description'),
        cell: (i) => (
          <>
            {i.getValue()}
            {i.row.original.internalNote ? (
              <span className="internal">
                <span className="internal__tag">{t('statement.internal')}</span> {i.row.original.internalNote}
              </span>
            ) : null}
          </>
        ),
      }),
      st.accessor('postedBy', { header: t('statement.postedBy'), cell: (i) => i.getValue() ?? '' }),
      st.accessor('amount', {
        header: t('statement.amount'),
        cell: (i) => <span className={i.getValue() < 0 ? 'neg' : 'pos'}>{formatSigned(i.getValue())}</span>,
      }),
      st.accessor('runningBalance', { header: t('statement.runningBalance'), cell: (i) => formatNumber(i.getValue()) }),
    ],
    [],
  );
  const rows = useMemo(() => statement.data?.pages.flatMap((page) => page.entries) ?? [], [statement.data]);
  if (statement.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (statement.isError) return <ErrorMessage error={statement.error} />;
  return (
    <>
      <DataTable
        columns={columns}
        rows={rows}
        caption={t('participant.statement')}
        numeric={['amount', 'runningBalance']}
        empty={t('statement.none')}
      />
      {statement.hasNextPage ? (
        <button type="button" className="button" onClick={() => void statement.fetchNextPage()} disabled={statement.isFetchingNextPage}>
          {statement.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
        </button>
      ) : null}
    </>
  );
}

type Limit = ConsoleParticipant['signIns']['limits'][number];
const lc = columnHelper<Limit>();
const limitColumns: Columns<Limit> = [
  lc.accessor((l) => limitLabel(l.name), { id: 'name', header: t('limits.name') }),
  lc.accessor((l) => `${l.taken} / ${l.max}`, { id: 'taken', header: t('limits.taken') }),
  // Nothing counted: no window is open, whatever time the server reports.
  lc.accessor((l) => (l.taken > 0 ? formatDateTime(l.windowEndsAt) : '—'), { id: 'until', header: t('limits.until') }),
  lc.accessor('locked', {
    header: t('limits.locked'),
    cell: (i) => (i.getValue() ? <strong className="neg">{t('limits.lockedYes')}</strong> : t('common.no')),
  }),
];
/** The server names a limit as modules/limits does ("signIn", "signIn per day"); staff read words. */
function limitLabel(name: string): string {
  const [kind = name, perDay] = name.split(' per day');
  const key = `limits.kind.${kind}`;
  const label = hasMessage(key) ? t(key) : kind;
  return perDay === undefined ? label : t('limits.perDay', { limit: label });
}
function LimitsTable({ limits }: { limits: Limit[] }) {
  return <DataTable columns={limitColumns} rows={limits} caption={t('participant.limits')} empty={t('limits.none')} />;
}

type Session = ConsoleParticipant['sessions'][number];
const sc = columnHelper<Session>();
const sessionColumns: Columns<Session> = [
  sc.accessor('createdAt', { header: t('sessions.started'), cell: (i) => formatDateTime(i.getValue()) }),
  sc.accessor('lastSeenAt', { header: t('sessions.lastSeen'), cell: (i) => formatDateTime(i.getValue()) }),
  sc.accessor('idleExpiresAt', { header: t('sessions.expires'), cell: (i) => formatDateTime(i.getValue()) }),
  sc.accessor('launchedAs', { header: t('sessions.launchedAs'), cell: (i) => (i.getValue() ? t('common.yes') : t('common.no')) }),
];
function SessionsTable({ sessions }: { sessions: Session[] }) {
  return <DataTable columns={sessionColumns} rows={sessions} caption={t('participant.sessions')} empty={t('sessions.none')} />;
}

type Code = ConsoleParticipant['codes'][number];
const cc = columnHelper<Code>();
const codeColumns: Columns<Code> = [
  cc.accessor('redeemedAt', { header: t('codes.redeemed'), cell: (i) => formatDateTime(i.getValue()) }),
  cc.accessor('hint', { header: t('codes.code') }),
  cc.accessor('batch', { header: t('codes.batch'), cell: (i) => i.getValue() ?? '—' }),
  cc.accessor('value', { header: t('codes.value'), cell: (i) => formatNumber(i.getValue()) }),
];
function CodesTable({ codes }: { codes: Code[] }) {
  return <DataTable columns={codeColumns} rows={codes} caption={t('participant.codes')} numeric={['value']} empty={t('codes.none')} />;
}

type Order = ConsoleParticipant['orders'][number];
const oc = columnHelper<Order>();
const orderColumns: Columns<Order> = [
  oc.accessor('at', { header: t('orders.at'), cell: (i) => formatDateTime(i.getValue()) }),
  oc.accessor('partner', { header: t('orders.partner') }),
  oc.accessor('orderId', { header: t('orders.order') }),
  oc.accessor('points', { header: t('orders.points'), cell: (i) => formatNumber(i.getValue()) }),
];
function OrdersTable({ orders }: { orders: Order[] }) {
  return <DataTable columns={orderColumns} rows={orders} caption={t('participant.orders')} numeric={['points']} empty={t('orders.none')} />;
}

type Mail = ConsoleParticipant['mails'][number];
const mc = columnHelper<Mail>();
const mailColumns: Columns<Mail> = [
  mc.accessor('createdAt', { header: t('mails.created'), cell: (i) => formatDateTime(i.getValue()) }),
  mc.accessor('template', { header: t('mails.template') }),
  mc.accessor('subject', { header: t('mails.subject') }),
  mc.accessor('to', { header: t('mails.to') }),
  mc.accessor('status', { header: t('mails.status'), cell: (i) => <span className={`badge badge--${i.getValue()}`}>{i.getValue()}</span> }),
  mc.accessor('sentAt', { header: t('mails.sent'), cell: (i) => (i.getValue() ? formatDateTime(i.getValue()) : '—') }),
  mc.accessor('note', { header: t('mails.note'), cell: (i) => <span className="details">{i.getValue() ?? ''}</span> }),
];
function MailsTable({ mails }: { mails: Mail[] }) {
  return <DataTable columns={mailColumns} rows={mails} caption={t('participant.mails')} empty={t('mails.none')} />;
}

type Contact = ConsoleParticipant['contactMessages'][number];
const ctc = columnHelper<Contact>();
const contactColumns: Columns<Contact> = [
  ctc.accessor('createdAt', { header: t('contact.at'), cell: (i) => formatDateTime(i.getValue()) }),
  ctc.accessor('topic', { header: t('contact.topic') }),
  ctc.accessor('subject', { header: t('contact.subject') }),
  ctc.accessor('status', { header: t('contact.status') }),
];
function ContactTable({ messages }: { messages: Contact[] }) {
  return <DataTable columns={contactColumns} rows={messages} caption={t('participant.contact')} empty={t('contact.none')} />;
}
