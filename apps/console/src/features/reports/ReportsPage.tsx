import { useId, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { ClientSummary, CodeBatchRow, OrdersReport, ParticipantsReport, PointsMonth } from '@rewards/contract/console-reports';
import { getCodesReport, getComparison, getOrdersReport, getParticipantsReport, getPointsReport } from '../../api/reports.ts';
import { useClients } from '../../api/clients.ts';
import { useSession } from '../../app/session.tsx';
import { formatNumber, t } from '../../i18n/t.ts';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { Chart } from './Chart.tsx';
import { ReportTable, type ReportColumn } from './ReportTable.tsx';
import './reports.css';
import { queryKeys } from '../../api/query-keys.ts';

const ALL = 'all';
const PERIODS = [12, 24, 36] as const;
const COLORS = { issued: '#2563eb', redeemed: '#d97706', outstanding: '#047857', count: '#4f46e5' };
const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;
const stamp = () => new Date().toISOString().slice(0, 10);

/**
 * Reports (issue 20, section 5, decision 067): per client, participants, points per month with
 * the liability, code batches and catalog orders; every client side by side for whoever sees
 * more than one (an owner: all). Each chart has its table, each table its CSV. The client and the
 * period live in the address, so a report can be linked.
 */
export default function ReportsPage() {
  const { me } = useSession();
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  const months = PERIODS.find((p) => String(p) === params.get('months')) ?? 12;
  const sideBySide = me.owner || (clients.data?.length ?? 0) > 1;
  const chosen = params.get('client') ?? (sideBySide ? ALL : clients.data?.[0]?.id);
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  const client = clients.data.find((c) => c.id === chosen);
  const choose = (next: { client?: string; months?: number }) =>
    setParams({ client: next.client ?? chosen ?? '', months: String(next.months ?? months) }, { replace: true });

  return (
    <div className="stack reports">
      <h1>{t('reports.title')}</h1>
      <div className="filters">
        <Field label={t('reports.client')}>
          {(id) => (
            <select id={id} value={chosen ?? ''} onChange={(e) => choose({ client: e.target.value })}>
              {sideBySide ? <option value={ALL}>{t('reports.allClients')}</option> : null}
              {clients.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('reports.period')}>
          {(id) => (
            <select id={id} value={months} onChange={(e) => choose({ months: Number(e.target.value) })}>
              {PERIODS.map((p) => (
                <option key={p} value={p}>
                  {t('reports.months', { n: p })}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p className="muted">{t('reports.utc')}</p>
      {chosen === ALL && sideBySide ? (
        <Comparison months={months} />
      ) : client ? (
        <>
          <ParticipantsSection clientId={client.id} />
          <PointsSection clientId={client.id} months={months} />
          <CodesSection clientId={client.id} />
          <OrdersSection clientId={client.id} months={months} />
        </>
      ) : (
        <p>{t('error.forbidden')}</p>
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Pending({ query }: { query: { isPending: boolean; isError: boolean; error: unknown } }) {
  if (query.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (query.isError) return <ErrorMessage error={query.error} />;
  return null;
}

type StatusRow = ParticipantsReport['byStatus'][number];
const statusColumns: ReportColumn<StatusRow>[] = [
  { id: 'status', header: t('reports.participants.status'), value: (r) => r.status },
  { id: 'count', header: t('reports.participants.count'), value: (r) => r.count, numeric: true },
];

function ParticipantsSection({ clientId }: { clientId: string }) {
  const report = useQuery({ queryKey: queryKeys.reports.participants(clientId), queryFn: () => getParticipantsReport(clientId) });
  const series = useMemo(
    () => [{ label: t('reports.participants.count'), values: report.data?.byStatus.map((s) => s.count) ?? [], color: COLORS.count }],
    [report.data],
  );
  const categories = useMemo(() => report.data?.byStatus.map((s) => s.status) ?? [], [report.data]);
  return (
    <Section title={t('reports.participants.title')}>
      <Pending query={report} />
      {report.data ? (
        <>
          <p className="reports__figures">
            <span>
              {t('reports.participants.total')}: <strong>{formatNumber(report.data.total)}</strong>
            </span>
            <span>
              {t('reports.participants.active', { days: report.data.active.days })}:{' '}
              <strong>{formatNumber(report.data.active.count)}</strong>
            </span>
          </p>
          <p className="muted">{t('reports.participants.activeHint')}</p>
          <Chart label={t('reports.participants.chart')} categories={categories} series={series} format={formatNumber} />
          <ReportTable
            caption={t('reports.participants.table')}
            columns={statusColumns}
            rows={report.data.byStatus}
            fileName={`participants-${clientId}-${stamp()}.csv`}
          />
        </>
      ) : null}
    </Section>
  );
}

const pointsColumns: ReportColumn<PointsMonth>[] = [
  { id: 'month', header: t('reports.month'), value: (r) => r.month },
  { id: 'issued', header: t('reports.points.issued'), value: (r) => r.issued, numeric: true },
  { id: 'redeemed', header: t('reports.points.redeemed'), value: (r) => r.redeemed, numeric: true },
  { id: 'expired', header: t('reports.points.expired'), value: (r) => r.expired, numeric: true },
  { id: 'adjusted', header: t('reports.points.adjusted'), value: (r) => r.adjusted, numeric: true },
  { id: 'outstanding', header: t('reports.points.outstanding'), value: (r) => r.outstanding, numeric: true },
];

function PointsSection({ clientId, months }: { clientId: string; months: number }) {
  const report = useQuery({ queryKey: queryKeys.reports.points(clientId, months), queryFn: () => getPointsReport(clientId, months) });
  const categories = useMemo(() => report.data?.months.map((m) => m.month) ?? [], [report.data]);
  const flows = useMemo(
    () => [
      { label: t('reports.points.issued'), values: report.data?.months.map((m) => m.issued) ?? [], color: COLORS.issued },
      { label: t('reports.points.redeemed'), values: report.data?.months.map((m) => m.redeemed) ?? [], color: COLORS.redeemed },
    ],
    [report.data],
  );
  const liability = useMemo(
    () => [
      {
        label: t('reports.points.outstanding'),
        values: report.data?.months.map((m) => m.outstanding) ?? [],
        color: COLORS.outstanding,
        kind: 'line' as const,
      },
    ],
    [report.data],
  );
  return (
    <Section title={t('reports.points.title')}>
      <Pending query={report} />
      {report.data ? (
        <>
          <p className="reports__figures">
            <span>
              {t('reports.points.liabilityNow')}: <strong>{formatNumber(report.data.outstanding)}</strong>
            </span>
          </p>
          <div className="reports__charts">
            <Chart label={t('reports.points.flowsChart')} categories={categories} series={flows} format={formatNumber} />
            <Chart label={t('reports.points.liabilityChart')} categories={categories} series={liability} format={formatNumber} />
          </div>
          <ReportTable
            caption={t('reports.points.table')}
            columns={pointsColumns}
            rows={report.data.months}
            fileName={`points-${clientId}-${stamp()}.csv`}
          />
        </>
      ) : null}
    </Section>
  );
}

const codeColumns: ReportColumn<CodeBatchRow>[] = [
  { id: 'batch', header: t('reports.codes.batch'), value: (r) => r.batch ?? t('reports.codes.noBatch') },
  { id: 'generated', header: t('reports.codes.generated'), value: (r) => r.generated, numeric: true },
  { id: 'redeemed', header: t('reports.codes.redeemed'), value: (r) => r.redeemed, numeric: true },
  { id: 'expired', header: t('reports.codes.expired'), value: (r) => r.expired, numeric: true },
  { id: 'voided', header: t('reports.codes.voided'), value: (r) => r.voided, numeric: true },
  { id: 'open', header: t('reports.codes.open'), value: (r) => r.open, numeric: true },
  {
    id: 'rate',
    header: t('reports.codes.rate'),
    value: (r) => Math.round(r.redemptionRate * 10_000) / 10_000,
    show: (r) => percent(r.redemptionRate),
    numeric: true,
  },
  { id: 'points', header: t('reports.codes.points'), value: (r) => r.pointsRedeemed, numeric: true },
];

function CodesSection({ clientId }: { clientId: string }) {
  const report = useQuery({ queryKey: queryKeys.reports.codes(clientId), queryFn: () => getCodesReport(clientId) });
  const categories = useMemo(() => report.data?.batches.map((b) => b.batch ?? t('reports.codes.noBatch')) ?? [], [report.data]);
  const series = useMemo(
    () => [
      {
        label: t('reports.codes.rate'),
        values: report.data?.batches.map((b) => Math.round(b.redemptionRate * 1000) / 10) ?? [],
        color: COLORS.count,
      },
    ],
    [report.data],
  );
  return (
    <Section title={t('reports.codes.title')}>
      <Pending query={report} />
      {report.data ? (
        <>
          <p className="reports__figures">
            <span>
              {t('reports.codes.generated')}: <strong>{formatNumber(report.data.total.generated)}</strong>
            </span>
            <span>
              {t('reports.codes.rate')}: <strong>{percent(report.data.total.redemptionRate)}</strong>
            </span>
          </p>
          {report.data.batches.length > 0 ? (
            <Chart label={t('reports.codes.chart')} categories={categories} series={series} format={(n) => `${n} %`} />
          ) : null}
          <ReportTable
            caption={t('reports.codes.table')}
            columns={codeColumns}
            rows={report.data.batches}
            fileName={`code-batches-${clientId}-${stamp()}.csv`}
          />
        </>
      ) : null}
    </Section>
  );
}

type OrderMonth = OrdersReport['months'][number];
type PartnerRow = OrdersReport['partners'][number];
const orderColumns: ReportColumn<OrderMonth>[] = [
  { id: 'month', header: t('reports.month'), value: (r) => r.month },
  { id: 'orders', header: t('reports.orders.orders'), value: (r) => r.orders, numeric: true },
  { id: 'points', header: t('reports.orders.points'), value: (r) => r.points, numeric: true },
];
const partnerColumns: ReportColumn<PartnerRow>[] = [
  { id: 'partner', header: t('reports.orders.partner'), value: (r) => r.name },
  { id: 'orders', header: t('reports.orders.orders'), value: (r) => r.orders, numeric: true },
  { id: 'points', header: t('reports.orders.points'), value: (r) => r.points, numeric: true },
];

function OrdersSection({ clientId, months }: { clientId: string; months: number }) {
  const report = useQuery({ queryKey: queryKeys.reports.orders(clientId, months), queryFn: () => getOrdersReport(clientId, months) });
  const categories = useMemo(() => report.data?.months.map((m) => m.month) ?? [], [report.data]);
  const series = useMemo(
    () => [{ label: t('reports.orders.orders'), values: report.data?.months.map((m) => m.orders) ?? [], color: COLORS.redeemed }],
    [report.data],
  );
  return (
    <Section title={t('reports.orders.title')}>
      <Pending query={report} />
      {report.data ? (
        <>
          <Chart label={t('reports.orders.chart')} categories={categories} series={series} format={formatNumber} />
          <ReportTable
            caption={t('reports.orders.table')}
            columns={orderColumns}
            rows={report.data.months}
            fileName={`orders-${clientId}-${stamp()}.csv`}
          />
          <h3>{t('reports.orders.byPartner')}</h3>
          <ReportTable
            caption={t('reports.orders.partnerTable')}
            columns={partnerColumns}
            rows={report.data.partners}
            fileName={`orders-by-partner-${clientId}-${stamp()}.csv`}
          />
        </>
      ) : null}
    </Section>
  );
}

const comparisonColumns: ReportColumn<ClientSummary>[] = [
  { id: 'client', header: t('reports.client'), value: (r) => r.name },
  { id: 'participants', header: t('reports.compare.participants'), value: (r) => r.participants, numeric: true },
  { id: 'active', header: t('reports.compare.active'), value: (r) => r.active, numeric: true },
  { id: 'outstanding', header: t('reports.points.outstanding'), value: (r) => r.outstanding, numeric: true },
  { id: 'issued', header: t('reports.points.issued'), value: (r) => r.issued, numeric: true },
  { id: 'redeemed', header: t('reports.points.redeemed'), value: (r) => r.redeemed, numeric: true },
  { id: 'expired', header: t('reports.points.expired'), value: (r) => r.expired, numeric: true },
  { id: 'codesGenerated', header: t('reports.compare.codes'), value: (r) => r.codesGenerated, numeric: true },
  { id: 'codesRedeemed', header: t('reports.compare.codesRedeemed'), value: (r) => r.codesRedeemed, numeric: true },
  { id: 'orders', header: t('reports.orders.orders'), value: (r) => r.orders, numeric: true },
];

function Comparison({ months }: { months: number }) {
  const report = useQuery({ queryKey: queryKeys.reports.comparison(months), queryFn: () => getComparison(months) });
  const categories = useMemo(() => report.data?.clients.map((c) => c.name) ?? [], [report.data]);
  const series = useMemo(
    () => [
      { label: t('reports.points.outstanding'), values: report.data?.clients.map((c) => c.outstanding) ?? [], color: COLORS.outstanding },
    ],
    [report.data],
  );
  return (
    <Section title={t('reports.compare.title')}>
      <Pending query={report} />
      {report.data ? (
        <>
          <p className="muted">{t('reports.compare.period', { from: report.data.from })}</p>
          <Chart label={t('reports.compare.chart')} categories={categories} series={series} format={formatNumber} />
          <ReportTable
            caption={t('reports.compare.table')}
            columns={comparisonColumns}
            rows={report.data.clients}
            fileName={`clients-${stamp()}.csv`}
          />
        </>
      ) : null}
    </Section>
  );
}
