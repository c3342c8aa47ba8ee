import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../audit/service.ts';
import { findClient } from '../clients/service.ts';
import { leaseHolder } from '../jobs/lease.ts';
import { startWakeLoop } from '../jobs/wake-loop.ts';
import { queueWebhookDisabledNotice } from '../staff/mail.ts';
import { clientMaintainers } from '../staff/roles.ts';
import { checkUrlForm, resolveTarget, systemResolver, type AddressPolicy, type Resolver } from './address.ts';
import { onWebhookTold, wakeWebhookWorkers } from './events.ts';
import { openSigningSecret, signatureHeader } from './secrets.ts';
import { postJson, type SendResult } from './send.ts';
import {
  claimDeliveries,
  deliveriesWork,
  disableEndpointRow,
  dueDeliveries,
  endpointDelivered,
  endpointFailed,
  finishAttempt,
  pruneHistory,
  type DeliveryOutcome,
} from './store.ts';
import { idsMadeBefore } from './ids.ts';

/**
 * Delivery of the webhook outbox (decision 084). A pass claims its due deliveries by one
 * conditional UPDATE (claimed_by, claimed_until, the attempt counted) before it sends them, so
 * several processes deliver each once; a worker killed while sending leaves its claims to run
 * out, and those deliveries are tried again after them (at least once, with the same webhook-id:
 * the receiver deduplicates on it). Between the claim and the outcomes nothing is held open; the
 * outcomes are written together, in one transaction: a pass costs two commits, not two a delivery
 * (the disk's commits are what the postings need too).
 */

/** Waits after attempt n (1-based) failed: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h; after the 7th attempt it has failed. */
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];

/** An endpoint whose attempts have all failed this long is disabled, and its client's staff told. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;

/**
 * Deliveries sent or given up, and the events no delivery names any more, are kept this long (the
 * console and `rewards webhooks deliveries` list them), then deleted; pending ones always stay.
 */
export const KEEP_HISTORY_MS = 30 * 24 * 3_600_000;
/** How often a worker deletes what KEEP_HISTORY_MS let go, in batches of PRUNE_BATCH (a backlog goes on at the next pass). */
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 5_000;

export interface WebhookLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface WebhookDeliveryOptions {
  db: Db;
  /** Where the installation's sealing key lives (config.catalog.dataDir). */
  dataDir: string;
  /**
   * The console's origin (config.console.origin): the mail telling a client's owners and program
   * managers that an endpoint was disabled links to its Settings → Webhooks. Without it (tests of
   * other things) the disabling is audited and logged but mails nobody.
   */
  consoleOrigin?: string;
  policy: AddressPolicy;
  log: WebhookLog;
  /** Injectable clock (tests); default the wall clock. The webhook-timestamp is always the wall clock's (receivers check it). */
  now?: () => Date;
  /** How long a request may take; default 10 s. */
  timeoutMs?: number;
  /** How long a claim holds; longer than any request can take. Default 60 s. */
  claimMs?: number;
  /**
   * How long a pass waits for its slowest sends before the next pass may start (those go on, and
   * their outcomes are written when they end); default 1 s.
   */
  passWaitMs?: number;
  /** Poll period, the net behind the wake-up after each told event (and the way another process's events are seen); default 1 s. */
  pollMs?: number;
  /** DNS (tests); default node:dns lookup, every address. */
  resolver?: Resolver;
  /** This worker's name in claimed_by; default host, pid and a random part. */
  holder?: string;
}

/** Deliveries claimed by a pass (their outcomes are one commit). */
const BATCH = 100;
/**
 * Deliveries sent at once by one worker: with 4, under 1,400 postings a second the sends waited
 * behind the postings on the event loop and fell seconds behind; 8 kept pace with a lag of
 * 0.3 s, 16 with 11 ms (docs/measured.md).
 */
const PARALLEL = 16;
type Work = Awaited<ReturnType<typeof deliveriesWork>>[number];

export interface WebhookDeliveryPass {
  /**
   * One pass now (first, once an hour, the history older than KEEP_HISTORY_MS goes): claims due
   * deliveries and sends them; resolves with how many were tried, once their outcomes are written
   * (those of sends still under way after passWaitMs: when they end; see settled).
   */
  deliverDue(): Promise<number>;
  /** Resolves when no send of an ended pass is under way any more and every outcome is written. */
  settled(): Promise<void>;
}

export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDeliveryPass {
  const { db, dataDir, policy, log } = options;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const claimMs = options.claimMs ?? 60_000;
  const resolver = options.resolver ?? systemResolver;
  const holder = options.holder ?? leaseHolder();
  const passWaitMs = options.passWaitMs ?? 1_000;
  /** Sends still under way after their pass ended, each writing its outcome when it ends. */
  const stragglers = new Set<Promise<void>>();
  let prunedAt = Number.NEGATIVE_INFINITY;

  /** Once an hour (again at the next pass while a full batch went): history older than KEEP_HISTORY_MS. Never holds up the deliveries. */
  async function pruneNowAndThen(): Promise<void> {
    const at = now().getTime();
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    const cutoff = at - KEEP_HISTORY_MS;
    try {
      const pruned = await pruneHistory(db, idsMadeBefore('whd_', cutoff), idsMadeBefore('msg_', cutoff), PRUNE_BATCH);
      if (pruned.deliveries === PRUNE_BATCH || pruned.events === PRUNE_BATCH) prunedAt = Number.NEGATIVE_INFINITY;
    } catch (error) {
      log.warn(`webhook history clean-up failed (${(error as NodeJS.ErrnoException).code ?? 'error'}); tried again in an hour`);
    }
  }

  /** The secrets that sign for the endpoint now (the previous one too during a rotation's overlap). */
  async function signingSecrets(work: Work): Promise<string[]> {
    const secrets = [await openSigningSecret(dataDir, work.endpoint_id, work.secret_sealed)];
    if (work.previous_secret_sealed && work.previous_secret_until && work.previous_secret_until > now().toISOString())
      secrets.push(await openSigningSecret(dataDir, work.endpoint_id, work.previous_secret_sealed));
    return secrets;
  }

  /** `signers`: each endpoint's secrets, opened once a pass (the sealed box is a cost on every send otherwise). */
  async function attempt(work: Work, signers: Map<string, Promise<string[]>>): Promise<SendResult> {
    const form = checkUrlForm(work.url, policy);
    if (!form.ok) return { error: `refused: the URL ${form.problem}`, durationMs: 0 };
    const resolved = await resolveTarget(form.url, policy, resolver);
    if (!resolved.ok) return { error: `refused: ${resolved.problem}`, durationMs: 0 };
    const wall = new Date();
    let opening = signers.get(work.endpoint_id);
    if (!opening) {
      opening = signingSecrets(work);
      signers.set(work.endpoint_id, opening);
    }
    const secrets = await opening;
    const headers = {
      'webhook-id': work.event_id,
      'webhook-timestamp': String(Math.floor(wall.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, work.event_id, wall, work.payload),
    };
    return postJson(form.url, resolved.target, headers, work.payload, timeoutMs);
  }

  async function send(work: Work, signers: Map<string, Promise<string[]>>): Promise<SendResult> {
    try {
      return await attempt(work, signers);
    } catch (error) {
      // A sealed secret that does not open (another installation's key), or the like: tried again later.
      return { error: `could not be prepared (${(error as NodeJS.ErrnoException).code ?? 'error'})`, durationMs: 0 };
    }
  }

  /** What an attempt's result makes of the delivery: delivered, due again after the schedule's wait, or failed for good. */
  function outcomeOf(work: Work, result: SendResult, finished: Date): DeliveryOutcome {
    if (result.error === undefined)
      return {
        status: 'delivered',
        next_attempt_at: finished.toISOString(),
        last_status: result.status ?? null,
        last_error: null,
        last_duration_ms: result.durationMs,
        delivered_at: finished.toISOString(),
      };
    const wait = RETRY_SCHEDULE_MS[work.attempts - 1];
    return {
      status: wait === undefined ? 'failed' : 'pending',
      next_attempt_at: new Date(finished.getTime() + (wait ?? 0)).toISOString(),
      last_status: result.status ?? null,
      last_error: result.error.slice(0, 200),
      last_duration_ms: result.durationMs,
      delivered_at: null,
    };
  }

  /**
   * Failing for DISABLE_AFTER_MS: disabled, audited and its client's owners and program managers
   * told by mail, in one transaction (once, whichever worker gets there).
   */
  async function maybeDisable(endpointId: string, at: Date, lastError: string): Promise<void> {
    const since = await endpointFailed(db, endpointId, at.toISOString());
    if (!since || at.getTime() - new Date(since).getTime() < DISABLE_AFTER_MS) return;
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .select(['client_id', 'url', 'description'])
      .where('id', '=', endpointId)
      .executeTakeFirst();
    if (!endpoint) return;
    // Read before the transaction: the client's row is a cached read on the pool, not the transaction's connection.
    const clientName = options.consoleOrigin ? ((await findClient(db, endpoint.client_id))?.name ?? endpoint.client_id) : '';
    const reason = `every delivery failed since ${since}`;
    const disabled = await db.transaction().execute(async (trx) => {
      if (!(await disableEndpointRow(trx, endpointId, at.toISOString(), reason))) return false;
      if (options.consoleOrigin) await tellMaintainers(trx, { ...endpoint, clientName }, since, lastError, options.consoleOrigin);
      await recordAudit(
        trx,
        {
          clientId: endpoint.client_id,
          actor: 'webhook delivery',
          actorKind: 'system',
          action: 'webhooks.endpoint.disable',
          subject: endpointId,
          details: { reason, failingSince: since, automatic: true },
        },
        at,
      );
      return true;
    });
    if (disabled) log.warn(`webhook endpoint ${endpointId} of ${endpoint.client_id} disabled: ${reason}`);
  }

  /** One mail to each active owner and program manager of the client, queued in the disabling's transaction. */
  async function tellMaintainers(
    trx: Transaction<Database>,
    endpoint: { client_id: string; clientName: string; url: string; description: string },
    since: string,
    lastError: string,
    consoleOrigin: string,
  ): Promise<void> {
    const people = await clientMaintainers(trx, endpoint.client_id);
    // Only the host: a path or query may carry the receiver's own token.
    let host: string;
    try {
      host = new URL(endpoint.url).host;
    } catch {
      host = '?';
    }
    const link = `${consoleOrigin}/console/settings/webhooks?client=${encodeURIComponent(endpoint.client_id)}`;
    for (const person of people)
      await queueWebhookDisabledNotice(trx, {
        to: person.email,
        name: person.name,
        clientName: endpoint.clientName,
        host,
        description: endpoint.description,
        failingSince: since,
        lastError,
        link,
        consoleHost: new URL(consoleOrigin).hostname,
      });
  }

  async function deliverDue(): Promise<number> {
    await pruneNowAndThen();
    const at = now();
    const due = await dueDeliveries(db, at.toISOString(), BATCH);
    const claimed = await claimDeliveries(
      db,
      due.map((row) => row.id),
      holder,
      at.toISOString(),
      new Date(at.getTime() + claimMs).toISOString(),
    );
    const works = await deliveriesWork(db, claimed);
    if (works.length === 0) return 0;

    // Several at once, so that one slow receiver holds one send and not the others.
    const results = new Map<string, SendResult>();
    const signers = new Map<string, Promise<string[]>>();
    const sends = works.map((work) => {
      let done!: (result: SendResult) => void;
      const ended = new Promise<SendResult>((resolve) => (done = resolve));
      return { work, ended, done };
    });
    const queue = [...sends];
    const allSent = Promise.all(
      Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const result = await send(next.work, signers);
          results.set(next.work.id, result);
          next.done(result);
        }
      }),
    );
    // The pass ends when every send has, or after passWaitMs: a receiver that does not answer
    // holds its own deliveries (their claims outlast its timeout), not the next pass's.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, passWaitMs)));
    await Promise.race([allSent, waited]);
    clearTimeout(timer);
    const late = sends.filter(({ work }) => !results.has(work.id));
    await record(
      works.filter((work) => results.has(work.id)),
      results,
    );
    // Each late send's outcome is written when it ends (rare: one commit each).
    for (const { work, ended } of late) {
      const recording: Promise<void> = ended
        .then((result) => record([work], new Map([[work.id, result]])))
        // The participant's next event may be due now that this one is done.
        .then(wakeWebhookWorkers)
        .catch((error: unknown) =>
          log.warn(
            `webhook ${work.event_id}: the outcome of a late send was not written (${(error as NodeJS.ErrnoException).code ?? 'error'}); tried again after its claim`,
          ),
        )
        .finally(() => stragglers.delete(recording));
      stragglers.add(recording);
    }
    return works.length;
  }

  /** The attempts' outcomes, in one transaction; then the warnings, and the endpoints that failed throughout checked for disabling. */
  async function record(works: readonly Work[], results: ReadonlyMap<string, SendResult>): Promise<void> {
    if (works.length === 0) return;
    const finished = now();
    const failures: Array<{ work: Work; error: string; giveUp: boolean }> = [];
    const delivering = new Set<string>();
    await db.transaction().execute(async (trx) => {
      for (const work of works) {
        const result = results.get(work.id) ?? { error: 'not sent', durationMs: 0 };
        const outcome = outcomeOf(work, result, finished);
        // A claim that ran out meanwhile is another worker's now: its outcome is that worker's to write.
        if (!(await finishAttempt(trx, work.id, holder, outcome))) continue;
        if (result.error === undefined) delivering.add(work.endpoint_id);
        else failures.push({ work, error: result.error.slice(0, 200), giveUp: outcome.status === 'failed' });
      }
      for (const endpointId of delivering) await endpointDelivered(trx, endpointId);
    });

    const failing = new Map<string, string>();
    for (const { work, error, giveUp } of failures) {
      log.warn(`webhook ${work.event_id} attempt ${work.attempts} ${giveUp ? 'failed for good' : 'will be retried'}: ${error}`);
      // An endpoint that took another delivery in this group is not failing.
      if (!delivering.has(work.endpoint_id)) failing.set(work.endpoint_id, error);
    }
    for (const [endpointId, error] of failing) await maybeDisable(endpointId, finished, error);
  }

  async function settled(): Promise<void> {
    while (stragglers.size > 0) await Promise.all([...stragglers]);
  }

  return { deliverDue, settled };
}

export interface WebhookDelivery {
  /** Stops polling and waits for the pass under way and any send still going (requests end within their timeout). Call before the db closes. */
  stop(): Promise<void>;
  /** Resolves when the pass under way (if any) and any send still going have finished; for tests. */
  idle(): Promise<void>;
}

/**
 * Starts this process's delivery worker: a pass at start, after every told event (a wake-up
 * signal), and every pollMs. Its timers never keep the process alive.
 */
export function startWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const pass = createWebhookDelivery(options);
  const loop = startWakeLoop({
    // Again while a pass tried something: more may be due, and a participant's next event
    // becomes due once the one before it is delivered (one per participant and endpoint a pass).
    pass: async () => (await pass.deliverDue()) > 0,
    subscribe: onWebhookTold,
    pollMs: options.pollMs ?? 1_000,
    // The database may be briefly away; the next poll tries again. Only the code: a message may quote values.
    onError: (error) =>
      options.log.warn(`webhook delivery pass failed (${(error as NodeJS.ErrnoException).code ?? 'error'}); retrying at the next poll`),
  });
  return {
    async stop() {
      await loop.stop();
      await pass.settled();
    },
    async idle() {
      await loop.idle();
      await pass.settled();
    },
  };
}
