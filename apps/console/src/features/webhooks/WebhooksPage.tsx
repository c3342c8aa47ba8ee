import { useId, useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import {
  DEFAULT_ROTATION_OVERLAP_HOURS,
  MAX_ROTATION_OVERLAP_HOURS,
  MAX_WEBHOOK_DESCRIPTION,
  MAX_WEBHOOK_ENDPOINTS,
  MAX_WEBHOOK_URL,
  WEBHOOK_EVENT_KINDS,
  type CreateWebhookEndpointRequest,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventKind,
  type WebhookSecretReply,
} from '@rewards/contract/console-webhooks';
import { formatDateTime, t, type MessageKey } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { ClientSettingsPage } from '../../ui/ClientSettingsPage.tsx';
import { errorText, Field, NumberField } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { SecretOnce } from '../../ui/SecretOnce.tsx';
import { getDeliveries, getEndpoints } from './api.ts';
import { useCreateEndpoint, useDeleteEndpoint, useResendDelivery, useRotateSecret, useUpdateEndpoint } from './mutations.ts';
import './webhooks.css';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';

const kindLabel = (kind: string) =>
  (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind) ? t(`webhooks.kind.${kind}` as MessageKey) : kind;
/** How often an endpoint's deliveries are read again while one of them is still to be sent. */
const POLL_MS = 2_000;
/** …and while none is: new events arrive without a click on Refresh. */
const IDLE_POLL_MS = 15_000;

/**
 * Settings → Webhooks (issue 29 §3, decision 084): the endpoints a client's own systems receive
 * its events at, signed by the Standard Webhooks scheme. Owners and program managers of a client
 * see and change them; adding one and rotating its secret show the secret once (a fresh second
 * factor, asked for by the API client). Each endpoint's deliveries show what was sent, how it
 * went, and can be sent again.
 */
export default function WebhooksPage() {
  return (
    <ClientSettingsPage
      title={t('webhooks.title')}
      intro={t('webhooks.intro')}
      noClient={t('webhooks.noClient')}
      clientLabel={t('webhooks.client')}
      // Program managers and owners only: the server refuses the other roles (decision 084).
      shows={(c, owner) => owner || c.role === 'program_manager'}
    >
      {(client) => <ClientWebhooks key={client.id} client={client} />}
    </ClientSettingsPage>
  );
}

/** A dialog's opening: which endpoint it acts on, then what it does. */
function EndpointIntro({ url, text }: { url: string; text: string }) {
  return (
    <>
      <p>
        <code className="webhook-url">{url}</code>
      </p>
      <p>{text}</p>
    </>
  );
}

function eventsText(events: readonly string[]): string {
  return events.includes('*') ? t('webhooks.allEvents') : events.map(kindLabel).join(', ');
}

function ClientWebhooks({ client }: { client: ConsoleClient }) {
  const endpoints = useQuery({ queryKey: queryKeys.webhooks.endpoints(client.id), queryFn: () => getEndpoints(client.id) });
  const update = useUpdateEndpoint(client.id);
  const remove = useDeleteEndpoint(client.id);
  const [creating, setCreating] = useState(false);
  const [toggling, setToggling] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [secret, setSecret] = useState<{ reply: WebhookSecretReply; rotated: boolean } | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const headingId = useId();
  const selected = endpoints.data?.endpoints.find((e) => e.id === shown);
  // The server refuses more (decision 084); the button says so before a dialog is filled in for nothing.
  const full = (endpoints.data?.endpoints.length ?? 0) >= MAX_WEBHOOK_ENDPOINTS;

  const columns = useMemo((): Columns<WebhookEndpoint> => {
    const col = columnHelper<WebhookEndpoint>();
    return [
      col.accessor('url', {
        header: t('webhooks.col.endpoint'),
        cell: (c) => (
          <>
            <code className="webhook-url">{c.getValue()}</code>
            {c.row.original.description ? (
              <>
                <br />
                <span className="muted">{c.row.original.description}</span>
              </>
            ) : null}
          </>
        ),
      }),
      col.accessor((e) => eventsText(e.events), { id: 'events', header: t('webhooks.col.events') }),
      col.accessor('enabled', {
        header: t('webhooks.col.state'),
        cell: (c) => {
          const e = c.row.original;
          return (
            <>
              <span className={e.enabled ? 'badge badge--active' : 'badge badge--disabled'}>
                {e.enabled ? t('webhooks.state.enabled') : t('webhooks.state.disabled')}
              </span>
              {e.failingSince ? (
                <>
                  <br />
                  <span className="badge badge--failed">{t('webhooks.failingSince', { date: formatDateTime(e.failingSince) })}</span>
                </>
              ) : null}
              {!e.enabled && e.disabledReason ? (
                <>
                  <br />
                  <span className="muted">{e.disabledReason}</span>
                </>
              ) : null}
              {e.previousSecretUntil ? (
                <>
                  <br />
                  <span className="muted">{t('webhooks.overlapUntil', { date: formatDateTime(e.previousSecretUntil) })}</span>
                </>
              ) : null}
            </>
          );
        },
      }),
      col.display({
        id: 'actions',
        header: t('webhooks.col.actions'),
        cell: (c) => {
          const e = c.row.original;
          return (
            <div className="row-actions">
              <button
                type="button"
                className="button button--small"
                aria-pressed={shown === e.id}
                aria-label={t('webhooks.deliveriesOf', { url: e.url })}
                onClick={() => setShown(shown === e.id ? null : e.id)}
              >
                {t('webhooks.deliveries')}
              </button>
              <button
                type="button"
                className="button button--small"
                aria-label={t(e.enabled ? 'webhooks.disableOf' : 'webhooks.enableOf', { url: e.url })}
                onClick={() => setToggling(e)}
              >
                {e.enabled ? t('webhooks.disable') : t('webhooks.enable')}
              </button>
              <button
                type="button"
                className="button button--small"
                aria-label={t('webhooks.rotateOf', { url: e.url })}
                onClick={() => setRotating(e)}
              >
                {t('webhooks.rotate')}
              </button>
              <button
                type="button"
                className="button button--small button--danger"
                aria-label={t('webhooks.deleteOf', { url: e.url })}
                onClick={() => setDeleting(e)}
              >
                {t('webhooks.delete')}
              </button>
            </div>
          );
        },
      }),
    ];
  }, [shown]);

  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{client.name}</h2>
      <div className="settings-row">
        <button
          type="button"
          className="button button--primary"
          disabled={full}
          aria-describedby={full ? `${headingId}-full` : undefined}
          onClick={() => setCreating(true)}
        >
          {t('webhooks.create')}
        </button>
        {full ? (
          <span id={`${headingId}-full`} className="muted">
            {t('webhooks.full', { max: MAX_WEBHOOK_ENDPOINTS })}
          </span>
        ) : null}
        <span role="status">{message}</span>
      </div>
      {secret ? (
        <NewSecret
          reply={secret.reply}
          rotated={secret.rotated}
          onDone={() => {
            setSecret(null);
            setMessage(t(secret.rotated ? 'webhooks.rotatedStatus' : 'webhooks.createdStatus', { url: secret.reply.endpoint.url }));
          }}
        />
      ) : null}
      <QueryView query={endpoints}>
        {(data) => (
          <DataTable
            columns={columns}
            rows={data.endpoints}
            caption={t('webhooks.caption', { client: client.name })}
            rowClass={(e) => (e.enabled ? undefined : 'row--muted')}
            empty={t('webhooks.none')}
          />
        )}
      </QueryView>
      {selected ? <Deliveries key={selected.id} client={client} endpoint={selected} /> : null}
      {creating ? (
        <CreateDialog
          client={client}
          onClose={() => setCreating(false)}
          onCreated={(reply) => {
            setMessage('');
            setSecret({ reply, rotated: false });
          }}
        />
      ) : null}
      {toggling ? (
        <ReasonDialog
          title={t(toggling.enabled ? 'webhooks.disableTitle' : 'webhooks.enableTitle')}
          intro={<EndpointIntro url={toggling.url} text={t(toggling.enabled ? 'webhooks.disableIntro' : 'webhooks.enableIntro')} />}
          submitLabel={t(toggling.enabled ? 'webhooks.disable' : 'webhooks.enable')}
          danger={toggling.enabled}
          onClose={() => setToggling(null)}
          mutation={update}
          variables={(reason) => ({ endpointId: toggling.id, enabled: !toggling.enabled, reason })}
          onDone={(view) => setMessage(t(view.enabled ? 'webhooks.enabledStatus' : 'webhooks.disabledStatus', { url: view.url }))}
        />
      ) : null}
      {deleting ? (
        <ReasonDialog
          title={t('webhooks.deleteTitle')}
          intro={<EndpointIntro url={deleting.url} text={t('webhooks.deleteIntro')} />}
          submitLabel={t('webhooks.deleteSubmit')}
          danger
          onClose={() => setDeleting(null)}
          mutation={remove}
          variables={(reason) => ({ endpointId: deleting.id, reason })}
          onDone={() => {
            if (shown === deleting.id) setShown(null);
            setMessage(t('webhooks.deletedStatus', { url: deleting.url }));
          }}
        />
      ) : null}
      {rotating ? (
        <RotateDialog
          client={client}
          endpoint={rotating}
          onClose={() => setRotating(null)}
          onRotated={(reply) => {
            setMessage('');
            setSecret({ reply, rotated: true });
          }}
        />
      ) : null}
    </section>
  );
}

/** The signing secret, this once: copy it, then it is gone from the page (the server keeps it sealed, and never shows it again). */
function NewSecret({ reply, rotated, onDone }: { reply: WebhookSecretReply; rotated: boolean; onDone: () => void }) {
  return (
    <SecretOnce
      className="webhook-secret"
      title={t(rotated ? 'webhooks.newSecretRotated' : 'webhooks.newSecretTitle', { url: reply.endpoint.url })}
      once={t('webhooks.newSecretOnce')}
      secret={reply.secret}
      testId="new-webhook-secret"
      labels={{
        copy: t('webhooks.copy'),
        stored: t('webhooks.stored'),
        copied: t('webhooks.copied'),
        copyFailed: t('webhooks.copyFailed'),
      }}
      note={
        reply.endpoint.previousSecretUntil
          ? t('webhooks.overlapNote', { date: formatDateTime(reply.endpoint.previousSecretUntil) })
          : t('webhooks.verifyNote')
      }
      onDone={onDone}
    />
  );
}

function CreateDialog({
  client,
  onClose,
  onCreated,
}: {
  client: ConsoleClient;
  onClose: () => void;
  /** After the endpoint is made (and the list read again): its signing secret, the only copy. */
  onCreated: (reply: WebhookSecretReply) => void;
}) {
  const mutation = useCreateEndpoint(client.id);
  const [url, setUrl] = useState('https://');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [kinds, setKinds] = useState<WebhookEventKind[]>([]);
  const urlOk = /^https?:\/\/\S+$/.test(url.trim()) && url.trim().length > 'https://'.length;
  const events: CreateWebhookEndpointRequest['events'] = all ? ['*'] : WEBHOOK_EVENT_KINDS.filter((k) => kinds.includes(k));
  return (
    <ReasonDialog
      title={t('webhooks.createTitle', { client: client.name })}
      intro={<p>{t('webhooks.createIntro')}</p>}
      submitLabel={t('webhooks.createSubmit')}
      ready={urlOk && (all || kinds.length > 0)}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({
        url: url.trim(),
        events,
        ...(description.trim() ? { description: description.trim() } : {}),
        reason,
      })}
      onDone={onCreated}
    >
      <Field label={t('webhooks.url')} hint={t('webhooks.urlHint')}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            type="url"
            value={url}
            maxLength={MAX_WEBHOOK_URL}
            onChange={(e) => setUrl(e.target.value)}
            required
          />
        )}
      </Field>
      <Field label={t('webhooks.description')} hint={t('webhooks.descriptionHint')}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            value={description}
            maxLength={MAX_WEBHOOK_DESCRIPTION}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <fieldset>
        <legend>{t('webhooks.events')}</legend>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          <span>{t('webhooks.allEventsChoice')}</span>
        </label>
        {all ? null : (
          <div className="webhook-kind-list">
            {WEBHOOK_EVENT_KINDS.map((kind) => (
              <label key={kind} className="check">
                <input
                  type="checkbox"
                  checked={kinds.includes(kind)}
                  onChange={(e) => setKinds((list) => (e.target.checked ? [...list, kind] : list.filter((k) => k !== kind)))}
                />
                <span>
                  {kindLabel(kind)} <code className="muted">{kind}</code>
                </span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
    </ReasonDialog>
  );
}

function RotateDialog({
  client,
  endpoint,
  onClose,
  onRotated,
}: {
  client: ConsoleClient;
  endpoint: WebhookEndpoint;
  onClose: () => void;
  /** After the rotation (and the list read again): the new secret, the only copy. */
  onRotated: (reply: WebhookSecretReply) => void;
}) {
  const mutation = useRotateSecret(client.id, endpoint.id);
  const [hours, setHours] = useState(String(DEFAULT_ROTATION_OVERLAP_HOURS));
  const value = /^\d{1,3}$/.test(hours.trim()) ? Number(hours) : Number.NaN;
  const ok = Number.isInteger(value) && value >= 0 && value <= MAX_ROTATION_OVERLAP_HOURS;
  return (
    <ReasonDialog
      title={t('webhooks.rotateTitle')}
      intro={<EndpointIntro url={endpoint.url} text={t('webhooks.rotateIntro')} />}
      submitLabel={t('webhooks.rotateSubmit')}
      ready={ok}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({ overlapHours: value, reason })}
      onDone={onRotated}
    >
      <NumberField
        label={t('webhooks.overlap')}
        hint={t('webhooks.overlapHint', { max: MAX_ROTATION_OVERLAP_HOURS })}
        min={0}
        max={MAX_ROTATION_OVERLAP_HOURS}
        value={hours}
        invalid={!ok}
        onChange={setHours}
      />
    </ReasonDialog>
  );
}

const STATUS_BADGE: Record<WebhookDelivery['status'], string> = {
  pending: 'badge badge--pending',
  delivered: 'badge badge--active',
  failed: 'badge badge--failed',
};

/** What the last attempt came to: the receiver's status code, or why there was none. */
function lastAnswer(d: WebhookDelivery): string {
  if (d.lastAttemptAt === null) return t('webhooks.notTried');
  const code = d.lastStatus === null ? (d.lastError ?? '—') : String(d.lastStatus);
  return t('webhooks.lastAnswer', { code, time: formatDateTime(d.lastAttemptAt), ms: d.lastDurationMs ?? 0 });
}

function Deliveries({ client, endpoint }: { client: ConsoleClient; endpoint: WebhookEndpoint }) {
  const headingId = useId();
  const resend = useResendDelivery(client.id, endpoint.id);
  // The delivery being sent again, if any; the last resend's outcome is the status line's.
  const sending = resend.isPending ? resend.variables.id : null;
  const { mutate: send } = resend;
  const message = resend.isError
    ? errorText(resend.error)
    : resend.isSuccess
      ? t('webhooks.resentStatus', { event: resend.variables.eventId })
      : '';
  const deliveries = useInfiniteQuery({
    queryKey: queryKeys.webhooks.deliveries(client.id, endpoint.id),
    queryFn: ({ pageParam }) => getDeliveries(client.id, endpoint.id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Read again often while something is still to be sent (the worker sends within a second or two), and now and then for new events.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.deliveries.some((d) => d.status === 'pending')) ? POLL_MS : IDLE_POLL_MS,
  });
  const rows = useMemo(() => deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [], [deliveries.data]);

  const columns = useMemo((): Columns<WebhookDelivery> => {
    const col = columnHelper<WebhookDelivery>();
    return [
      col.accessor('kind', {
        header: t('webhooks.col.event'),
        cell: (c) => {
          const d = c.row.original;
          return (
            <>
              {kindLabel(d.kind)}
              {d.username ? <span className="muted"> · {d.username}</span> : null}
              <br />
              <code className="muted webhook-event-id">{d.eventId}</code>
              <br />
              <span className="muted">{formatDateTime(d.createdAt)}</span>
            </>
          );
        },
      }),
      col.accessor('status', {
        header: t('webhooks.col.status'),
        cell: (c) => {
          const d = c.row.original;
          return (
            <>
              <span className={STATUS_BADGE[d.status]}>{t(`webhooks.status.${d.status}` as MessageKey)}</span>
              {d.status === 'pending' && d.nextAttemptAt ? (
                <>
                  <br />
                  <span className="muted">{t('webhooks.nextAttempt', { time: formatDateTime(d.nextAttemptAt) })}</span>
                </>
              ) : null}
            </>
          );
        },
      }),
      col.accessor('attempts', { header: t('webhooks.col.tries') }),
      col.accessor((d) => lastAnswer(d), { id: 'last', header: t('webhooks.col.last') }),
      col.accessor('payload', {
        header: t('webhooks.col.payload'),
        cell: (c) => (
          <details className="webhook-payload">
            <summary>{t('webhooks.showPayload')}</summary>
            <pre>{pretty(c.getValue())}</pre>
          </details>
        ),
      }),
      col.display({
        id: 'resend',
        header: t('webhooks.col.actions'),
        cell: (c) => {
          const d = c.row.original;
          return (
            <button
              type="button"
              className="button button--small"
              disabled={sending === d.id || !endpoint.enabled}
              aria-label={t('webhooks.resendOf', { event: d.eventId })}
              onClick={() => send(d)}
            >
              {t('webhooks.resend')}
            </button>
          );
        },
      }),
    ];
  }, [sending, endpoint.enabled, send]);

  return (
    <section className="section" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {t('webhooks.deliveriesTitle')} <code className="webhook-url">{endpoint.url}</code>
      </h3>
      <div className="settings-row">
        <button type="button" className="button button--small" onClick={() => void deliveries.refetch()}>
          {t('webhooks.refresh')}
        </button>
        <span role="status">{message}</span>
      </div>
      <QueryView query={deliveries}>
        {() => (
          <>
            <DataTable
              columns={columns}
              rows={rows}
              caption={t('webhooks.deliveriesCaption', { url: endpoint.url })}
              numeric={['attempts']}
              empty={t('webhooks.noDeliveries')}
            />
            {deliveries.hasNextPage ? (
              <button
                type="button"
                className="button"
                onClick={() => void deliveries.fetchNextPage()}
                disabled={deliveries.isFetchingNextPage}
              >
                {t('common.loadMore')}
              </button>
            ) : null}
          </>
        )}
      </QueryView>
    </section>
  );
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}
