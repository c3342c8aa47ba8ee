import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import type { ImportCounts, ImportEventsPreview, ImportJob, ImportKind, ImportStatus } from '@rewards/contract/console-imports';
import { useClients } from '../../api/clients.ts';
import { useSession } from '../../app/session.tsx';
import { formatDateTime, formatNumber, t } from '../../i18n/t.ts';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { getImport, listImports, rejectsUrl } from './imports-api.ts';
import { useConfirmImport, useDiscardImport, useUploadImport } from './mutations.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { ClientPicker } from '../../ui/ClientPicker.tsx';

/** The console's badge colours: waiting, under way, done well, failed; a discarded one plain grey. */
const BADGE: Record<ImportStatus, string> = {
  staging: 'badge badge--pending',
  previewing: 'badge badge--queued',
  staged: 'badge badge--pending',
  running: 'badge badge--queued',
  done: 'badge badge--active',
  failed: 'badge badge--failed',
  discarded: 'badge',
};

/** How often the progress of a job being previewed or run is asked for. */
const POLL_MS = 1_000;
/** The statuses in which a job moves on by itself (the server's jobs loop): the page polls it. */
const MOVING: ReadonlySet<ImportStatus> = new Set(['previewing', 'running']);

/**
 * Imports (issue 20 §2, decision 064): upload a participants, points or events CSV (with the upload's
 * progress), wait for its preview (prepared on the server as a phase of the job, polled), read it,
 * confirm with a reason, watch the job's progress (polled), download the rejects. The client and
 * the job are in the address, so a reload finds the job again, whether its preview is ready or not.
 */
export default function ImportsPage() {
  const { me } = useSession();
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  // "Import discarded." after a discard, until the next upload or another client.
  const [notice, setNotice] = useState<string | null>(null);
  // Bumped by a discard: the upload form starts afresh (the thrown-away file no longer picked).
  const [uploadForm, setUploadForm] = useState(0);
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  if (clients.data.length === 0) return <p>{t('error.forbidden')}</p>;
  const client = clients.data.find((c) => c.id === params.get('client')) ?? clients.data[0]!;
  const jobId = params.get('job');
  const canChange = me.owner || client.role === 'program_manager';
  const show = (next: { client?: string; job?: string | null }) => {
    setNotice(null);
    const search = new URLSearchParams();
    search.set('client', next.client ?? client.id);
    if (next.job) search.set('job', next.job);
    setParams(search);
  };
  return (
    <div className="stack">
      <h1>{t('imports.title')}</h1>
      <ClientPicker label={t('imports.client')} clients={clients.data} chosen={client} onChoose={(id) => show({ client: id, job: null })} />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {canChange ? (
        <UploadSection key={uploadForm} client={client} onUploaded={(job) => show({ job: job.id })} />
      ) : (
        <p className="muted">{t('imports.readOnly')}</p>
      )}
      {jobId ? (
        <JobSection
          key={jobId}
          client={client}
          jobId={jobId}
          canChange={canChange}
          onDiscarded={() => {
            // Back to the upload form, saying so.
            show({ job: null });
            setNotice(t('imports.discarded'));
            setUploadForm((n) => n + 1);
          }}
        />
      ) : null}
      <HistorySection client={client} current={jobId} onOpen={(id) => show({ job: id })} />
    </div>
  );
}

function UploadSection({ client, onUploaded }: { client: ConsoleClient; onUploaded: (job: ImportJob) => void }) {
  const upload = useUploadImport(client.id);
  const [kind, setKind] = useState<ImportKind>('points');
  const [file, setFile] = useState<File | null>(null);
  // The bytes sent so far, shown while the upload is under way.
  const [progress, setProgress] = useState({ sent: 0, total: 0 });
  const sent = upload.isPending ? progress : null;
  const headingId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || upload.isPending) return;
    setProgress({ sent: 0, total: file.size });
    // Shown at once, then polled until its preview is ready.
    upload.mutate({ kind, file, onProgress: (done, total) => setProgress({ sent: done, total }) }, { onSuccess: onUploaded });
  };
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('imports.upload')}</h2>
      <form className="form" onSubmit={submit}>
        <Field label={t('imports.kind')}>
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind(e.target.value as ImportKind)}>
              <option value="points">{t('imports.kind.points')}</option>
              <option value="participants">{t('imports.kind.participants')}</option>
              <option value="events">{t('imports.kind.events')}</option>
            </select>
          )}
        </Field>
        <Field label={t('imports.file')} hint={t(`imports.fileHint.${kind}`)}>
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              required
            />
          )}
        </Field>
        <div className="settings-row">
          <button type="submit" className="button" disabled={!file || sent !== null}>
            {t('imports.uploadButton')}
          </button>
          {sent ? (
            <>
              <progress
                aria-label={t('imports.uploading')}
                max={Math.max(sent.total, 1)}
                value={sent.sent}
                style={{ width: '16rem', maxWidth: '100%' }}
              />
              <span role="status">
                {sent.sent >= sent.total
                  ? t('imports.uploaded')
                  : t('imports.sent', { percent: Math.floor((100 * sent.sent) / Math.max(sent.total, 1)) })}
              </span>
            </>
          ) : null}
        </div>
        <ErrorMessage error={upload.error} />
      </form>
    </section>
  );
}

function JobSection({
  client,
  jobId,
  canChange,
  onDiscarded,
}: {
  client: ConsoleClient;
  jobId: string;
  canChange: boolean;
  onDiscarded: () => void;
}) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: queryKeys.imports.job(client.id, jobId),
    queryFn: () => getImport(client.id, jobId),
    // Polled while its preview is prepared or it runs (until the page leaves it); then what it shows no longer changes.
    refetchInterval: (query) => (query.state.data && MOVING.has(query.state.data.status) ? POLL_MS : false),
  });
  const [confirming, setConfirming] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const confirm = useConfirmImport(client.id, jobId);
  const discard = useDiscardImport(client.id, jobId);
  const headingId = useId();
  const status = job.data?.status;
  // The history shows each job's status: kept in step as this one moves on.
  useEffect(() => {
    if (status) void queryClient.invalidateQueries({ queryKey: queryKeys.imports.ofClient(client.id) });
  }, [status, client.id, queryClient]);
  if (job.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (job.isError) return <ErrorMessage error={job.error} />;
  const j = job.data;
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('imports.job', { file: j.fileName })}</h2>
      <p>
        <span className={BADGE[j.status]}>{t(`imports.status.${j.status}`)}</span>{' '}
        {t('imports.jobFacts', { kind: t(`imports.kind.${j.kind}`), lines: formatNumber(j.lines), by: j.createdBy })}
      </p>
      {/* Before the confirmation what it would do; after, what it did (so far, while it runs). */}
      {j.preview && j.status === 'staged' ? <Counts title={t('imports.preview')} counts={j.preview} kind={j.kind} /> : null}
      {j.eventsPreview && j.status === 'staged' ? <EventsPreview preview={j.eventsPreview} /> : null}
      {j.status === 'staged' ? (
        canChange ? (
          <div className="settings-row">
            <button type="button" className="button button--primary" onClick={() => setConfirming(true)}>
              {t('imports.confirm')}
            </button>
            <button type="button" className="button" onClick={() => setDiscarding(true)}>
              {t('imports.discard')}
            </button>
            <span className="muted">{t('imports.nothingYet')}</span>
          </div>
        ) : (
          <p className="muted">{t('imports.awaiting')}</p>
        )
      ) : null}
      {j.status === 'previewing' ? (
        <>
          <div className="settings-row">
            <progress
              aria-label={t('imports.previewProgress')}
              max={Math.max(j.lines, 1)}
              value={j.done}
              style={{ width: '16rem', maxWidth: '100%' }}
            />
            <span role="status">{t('imports.preparing', { done: formatNumber(j.done), lines: formatNumber(j.lines) })}</span>
          </div>
          <p className="muted">{t('imports.preparingNote')}</p>
          {canChange ? (
            <div className="settings-row">
              {/* No confirm before the preview; a file known to be wrong can be thrown away at once. */}
              <button type="button" className="button" onClick={() => setDiscarding(true)}>
                {t('imports.discard')}
              </button>
            </div>
          ) : null}
        </>
      ) : null}
      {j.status === 'discarded' ? <p className="muted">{t('imports.discardedNote')}</p> : null}
      {j.status === 'running' || j.status === 'done' ? (
        <div className="settings-row">
          <progress
            aria-label={t('imports.progress')}
            max={Math.max(j.lines, 1)}
            value={j.done}
            style={{ width: '16rem', maxWidth: '100%' }}
          />
          <span role="status">
            {j.status === 'done'
              ? t('imports.finished', { done: formatNumber(j.done) })
              : t('imports.running', { done: formatNumber(j.done), lines: formatNumber(j.lines) })}
          </span>
        </div>
      ) : null}
      {j.result && j.status !== 'staged' ? <Counts title={t('imports.result')} counts={j.result} kind={j.kind} /> : null}
      {/* While previewing, the rejects found so far would be a partial list: shown with the preview. */}
      {j.rejects.length > 0 && j.status !== 'previewing' ? (
        <>
          <h3>{j.status === 'staged' ? t('imports.rejectsPreview') : t('imports.rejects')}</h3>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">{t('imports.rejects')}</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    {t('imports.line')}
                  </th>
                  <th scope="col">{t('imports.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {j.rejects.map((r) => (
                  <tr key={r.line}>
                    <td className="num">{r.line}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            <a className="button" href={rejectsUrl(client.id, j.id)} download>
              {t('imports.downloadRejects')}
            </a>
          </p>
        </>
      ) : null}
      {confirming ? (
        <ReasonDialog
          title={t('imports.confirmTitle', { file: j.fileName })}
          intro={<p>{t('imports.confirmIntro', { lines: formatNumber(j.preview?.added ?? 0) })}</p>}
          submitLabel={t('imports.confirm')}
          onClose={() => setConfirming(false)}
          mutation={confirm}
          variables={(reason) => reason}
        />
      ) : null}
      {discarding ? (
        <ReasonDialog
          title={t('imports.discardTitle', { file: j.fileName })}
          intro={<p>{t('imports.discardIntro')}</p>}
          submitLabel={t('imports.discardSubmit')}
          danger
          reasonOptional
          onClose={() => setDiscarding(false)}
          mutation={discard}
          variables={(reason) => reason}
          onDone={onDiscarded}
        />
      ) : null}
    </section>
  );
}

function Counts({ title, counts, kind }: { title: string; counts: ImportCounts; kind: ImportKind }) {
  const facts: Array<[string, ReactNode]> = [
    [t('imports.added'), formatNumber(counts.added)],
    ...(kind === 'participants' ? ([[t('imports.updated'), formatNumber(counts.updated)]] as Array<[string, ReactNode]>) : []),
    [t('imports.unchanged'), formatNumber(counts.unchanged)],
    [t('imports.rejected'), formatNumber(counts.rejected)],
    ...(kind === 'points'
      ? ([
          [t('imports.unknownUsernames'), formatNumber(counts.unknownUsernames)],
          [t('imports.pointsIn'), formatNumber(counts.pointsIn)],
          [t('imports.pointsOut'), formatNumber(counts.pointsOut)],
        ] as Array<[string, ReactNode]>)
      : []),
    ...(kind === 'events'
      ? ([
          [t('imports.unknownUsernames'), formatNumber(counts.unknownUsernames)],
          [t('imports.pointsCredited'), formatNumber(counts.pointsIn)],
          [t('imports.pointsTakenBack'), formatNumber(counts.pointsOut)],
          [t('imports.pendingPoints'), formatNumber(counts.pendingPoints ?? 0)],
        ] as Array<[string, ReactNode]>)
      : []),
  ];
  return (
    <>
      <h3>{title}</h3>
      <dl className="facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** An events file's preview (decision 099): each rule's points, then the file's first lines with what each earns. */
function EventsPreview({ preview }: { preview: ImportEventsPreview }) {
  return (
    <>
      {preview.budgetRanOut.length > 0 ? (
        <p className="notice" role="status">
          {t('imports.budgetRanOut', { rules: preview.budgetRanOut.join(', ') })}
        </p>
      ) : preview.fileOrder ? (
        <p className="notice" role="status">
          {t('imports.fileOrder')}
        </p>
      ) : null}
      {preview.rules.length > 0 ? (
        <>
          <h3>{t('imports.byRule')}</h3>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">{t('imports.byRule')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('imports.rule')}</th>
                  <th scope="col" className="num">
                    {t('imports.points')}
                  </th>
                  <th scope="col" className="num">
                    {t('imports.pending')}
                  </th>
                  <th scope="col" className="num">
                    {t('imports.ruleEvents')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {preview.rules.map((rule) => (
                  <tr key={rule.ruleId}>
                    <td>{rule.name}</td>
                    <td className="num">{formatNumber(rule.points)}</td>
                    <td className="num">{formatNumber(rule.pendingPoints)}</td>
                    <td className="num">{formatNumber(rule.events)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <h3>{t('imports.eventLines')}</h3>
      <p className="muted">{t('imports.eventLinesNote', { count: formatNumber(preview.lines.length) })}</p>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('imports.eventLines')}</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                {t('imports.line')}
              </th>
              <th scope="col">{t('imports.eventId')}</th>
              <th scope="col">{t('imports.username')}</th>
              <th scope="col">{t('imports.outcome')}</th>
              <th scope="col" className="num">
                {t('imports.points')}
              </th>
              <th scope="col" className="num">
                {t('imports.pending')}
              </th>
              <th scope="col">{t('imports.detail')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.lines.map((line) => (
              <tr key={line.line}>
                <td className="num">{line.line}</td>
                <td>{line.id ?? ''}</td>
                <td>{line.username ?? ''}</td>
                <td>{t(`imports.outcome.${line.outcome}`)}</td>
                <td className="num">{formatNumber(line.points)}</td>
                <td className="num">{formatNumber(line.pendingPoints)}</td>
                <td>{line.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function HistorySection({ client, current, onOpen }: { client: ConsoleClient; current: string | null; onOpen: (jobId: string) => void }) {
  const list = useQuery({ queryKey: queryKeys.imports.ofClient(client.id), queryFn: () => listImports(client.id) });
  const headingId = useId();
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('imports.history')}</h2>
      <QueryView query={list}>
        {(data) =>
          data.jobs.length === 0 ? (
            <p className="muted">{t('imports.none')}</p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">{t('imports.history')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('imports.file')}</th>
                    <th scope="col">{t('imports.kind')}</th>
                    <th scope="col">{t('imports.statusColumn')}</th>
                    <th scope="col" className="num">
                      {t('imports.lines')}
                    </th>
                    <th scope="col">{t('imports.when')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.jobs.map((job) => (
                    <tr key={job.id} aria-current={job.id === current ? 'true' : undefined}>
                      <td>
                        <button type="button" className="button button--link" onClick={() => onOpen(job.id)}>
                          {job.fileName}
                        </button>
                      </td>
                      <td>{t(`imports.kind.${job.kind}`)}</td>
                      <td>{t(`imports.status.${job.status}`)}</td>
                      <td className="num">{formatNumber(job.lines)}</td>
                      <td>{formatDateTime(job.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
    </section>
  );
}
