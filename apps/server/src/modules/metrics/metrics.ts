import { statfs, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { API_BASE, apiPaths, ErrorCode, ssoPaths } from '@rewards/contract';
import { CONSOLE_API_BASE, consolePaths } from '@rewards/contract/console';
import type { DatabaseConfig } from '../../config.ts';
import { poolOf, type Db } from '../../db/database.ts';
import { ApiError } from '../../http/api-error.ts';
import type { ExpiryRunOutcome, ExpiryRunRecord } from '../expiry/daily.ts';
import { buildInfo } from './build-info.ts';
import { RequestDurations } from './request-durations.ts';
import { countJobsByState } from '../jobs/service.ts';
import { outboxStanding } from '../mail/listing.ts';

/**
 * Rows a database count reads at most (a gauge at CAP means "CAP or more"): every read goes
 * through an index and stops there, so a scrape costs the same however much history the tables
 * hold; SQLite runs them on the event loop, between requests.
 */
const CAP = 10_000;
/** The states a job is counted in: the ones it can still leave, and failed. Done and discarded jobs are history (the console lists them). */
const COUNTED_JOB_STATES = ['staging', 'previewing', 'staged', 'running', 'failed'] as const;

/**
 * The portal's Prometheus metrics (decision 079): one registry per process, scraped on a listener
 * of its own (listener.ts), never on the public port. Requests are counted by hooks that do one
 * histogram observation each; the database's figures are read when Prometheus asks, bounded.
 */

export const METRICS_PATH = '/metrics';

/** How long a scrape waits for the database before it reports it down. */
const DATABASE_DEADLINE_MS = 2_000;

/** Request durations, seconds: the API answers in about a millisecond, sign-ins (argon2id) in a few tenths. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of a request no route matched: its path is the caller's to choose, so it is never a label. */
export const UNMATCHED = 'unmatched';

type Who = 'participant' | 'staff';
type Step = 'password' | 'second_factor' | 'single_sign_on';
type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

declare module 'fastify' {
  interface FastifyRequest {
    /** A single sign-on return's outcome, set by its route: it redirects (302) whatever happened. */
    signInOutcome?: SignInOutcome;
  }
}
const SIGN_IN_OUTCOMES = ['success', 'failure', 'throttled', 'error'] as const;

/**
 * The sign-in routes, by their template (as `request.routeOptions.url` gives it). The single
 * sign-on returns redirect either way: their outcome is the one their route set
 * (`request.signInOutcome`); one without (a staff step-up, not a sign-in) is not counted.
 */
const SIGN_IN_ROUTES = new Map<string, { who: Who; step: Step; redirects?: true }>([
  [`${API_BASE}${apiPaths.login}`, { who: 'participant', step: 'password' }],
  [`${API_BASE}${ssoPaths.callback}`, { who: 'participant', step: 'single_sign_on', redirects: true }],
  [`${CONSOLE_API_BASE}${consolePaths.signIn}`, { who: 'staff', step: 'password' }],
  [`${CONSOLE_API_BASE}${consolePaths.signInTotp}`, { who: 'staff', step: 'second_factor' }],
  [`${CONSOLE_API_BASE}${consolePaths.signInRecoveryCode}`, { who: 'staff', step: 'second_factor' }],
  [`${CONSOLE_API_BASE}${consolePaths.signInPasskey}`, { who: 'staff', step: 'second_factor' }],
  [`${CONSOLE_API_BASE}${consolePaths.signInOidcCallback}`, { who: 'staff', step: 'single_sign_on', redirects: true }],
]);

/**
 * Each 429 the portal answers, named after the limit that refused (decision 040): the error's code
 * says which. Another 429 counts as "other", so the label stays this short list.
 */
const LIMITS = new Map<number, string>([
  // Sign-in, and the current password when changing it: one limit.
  [ErrorCode.loginThrottled, 'sign-in'],
  // Activation, forgot user id, forgot password and reset links.
  [ErrorCode.accountThrottled, 'account'],
  [ErrorCode.otsThrottled, 'codes'],
  [ErrorCode.contactThrottled, 'contact'],
  [ErrorCode.adminKeyThrottled, 'admin-key'],
  // The console's password, second factors and step-up.
  [ErrorCode.staffThrottled, 'staff-sign-in'],
  [ErrorCode.consoleAgentLimitReached, 'agent-adjustments'],
  [ErrorCode.consoleMailThrottled, 'participant-mails'],
]);
const OTHER_LIMIT = 'other';

/**
 * A gauge without a sample while its value is unknown (the database down, no run yet): prom-client's
 * always shows one, and a 0 would read as "no mail waiting" rather than "cannot tell".
 */
class KnownGauge {
  readonly type = 'gauge';
  readonly aggregator = 'sum';
  value: number | undefined;
  readonly name: string;
  readonly help: string;
  readonly #read: (() => number | undefined) | undefined;

  constructor(registry: Registry, name: string, help: string, read?: () => number | undefined) {
    this.name = name;
    this.help = help;
    this.#read = read;
    // prom-client takes any object that answers get() in its metrics' shape.
    registry.registerMetric(this as unknown as Metric);
  }

  async get() {
    const value = this.#read ? this.#read() : this.value;
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: value === undefined ? [] : [{ value, labels: {} }],
    };
  }

  reset(): void {
    this.value = undefined;
  }
}

export interface MetricsSources {
  db: Db;
  database: DatabaseConfig;
}

export interface Metrics {
  /** Adds the request hooks; call before any route is added (buildApp does). */
  instrument(app: FastifyInstance): void;
  /** Where the daily expiry's last runs are read from (main.ts, once it is started). */
  watchExpiry(lastRuns: () => Readonly<Partial<Record<ExpiryRunOutcome, ExpiryRunRecord>>>): void;
  /** The text Prometheus reads; never throws for the database's sake (rewards_database_up says so). */
  scrape(): Promise<string>;
  readonly contentType: string;
}

export function createMetrics({ db, database }: MetricsSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process and Node: CPU, memory, heap spaces, handles, event-loop lag, GC pauses, the version.
  // The lag sampled every 20 ms rather than 10: its timer is what an idle process spends on metrics (0.4% of a core at 10 ms, 0.2% at 20, measured).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  // Gauges named like counters, which promtool refuses; their series by type (nodejs_active_handles{type} …) stay.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);

  let lastActive = 0;
  new Counter({
    name: 'rewards_event_loop_active_seconds_total',
    help: 'Time the event loop spent working rather than waiting (its rate is the utilisation, 0 to 1)',
    registers,
    collect() {
      const active = performance.eventLoopUtilization().active / 1000;
      if (active > lastActive) this.inc(active - lastActive);
      lastActive = active;
    },
  });

  const info = buildInfo();
  new Gauge({
    name: 'rewards_build_info',
    help: 'The build: package version and git commit',
    labelNames: ['version', 'commit'],
    registers,
  }).set({ version: info.version, commit: info.commit }, 1);

  // Requests: what each one pays is a counter and one observation (request-durations.ts).
  const durations = new RequestDurations(DURATION_BUCKETS, registry);
  let inFlight = 0;
  new Gauge({
    name: 'rewards_http_requests_in_flight',
    help: 'Requests received and not yet answered',
    registers,
    collect() {
      this.set(inFlight);
    },
  });
  const aborted = new Counter({
    name: 'rewards_http_requests_aborted_total',
    help: 'Requests whose caller went away before the reply ended (not in the durations)',
    registers,
  });
  const limitHits = new Counter({
    name: 'rewards_limit_hits_total',
    help: 'Replies 429: an attempt refused by a limit, by the limit',
    labelNames: ['limit'],
    registers,
  });
  for (const limit of [...LIMITS.values(), OTHER_LIMIT]) limitHits.inc({ limit }, 0);
  const signIns = new Counter({
    name: 'rewards_sign_ins_total',
    help: 'Sign-in attempts by who (participant, staff), step (staff: password, then a second factor) and outcome',
    labelNames: ['who', 'step', 'outcome'],
    registers,
  });
  for (const { who, step } of new Map([...SIGN_IN_ROUTES.values()].map((s) => [`${s.who}/${s.step}`, s])).values())
    for (const outcome of SIGN_IN_OUTCOMES) signIns.inc({ who, step, outcome }, 0);

  // The database, read at scrape time.
  const databaseUp = new Gauge({ name: 'rewards_database_up', help: '1 when the last scrape could read the database, else 0', registers });
  const databaseSeconds = new KnownGauge(registry, 'rewards_scrape_database_seconds', "Time the last scrape's database reads took");
  const outboxPending = new KnownGauge(
    registry,
    'rewards_mail_outbox_pending',
    `Mails queued and not delivered yet (counted up to ${CAP})`,
  );
  const outboxOldest = new KnownGauge(
    registry,
    'rewards_mail_outbox_oldest_pending_age_seconds',
    'Age of the oldest mail not delivered yet; 0 when none',
  );
  const outboxFailed = new KnownGauge(registry, 'rewards_mail_outbox_failed', `Mails given up (counted up to ${CAP})`);
  const jobs = new Gauge({
    name: 'rewards_jobs',
    help: `Background jobs by kind and state (${COUNTED_JOB_STATES.join(', ')}; counted up to ${CAP})`,
    labelNames: ['kind', 'state'],
    registers,
  });
  const pool = poolOf(db);
  if (pool) {
    new Gauge({
      name: 'rewards_database_pool_connections',
      help: "PostgreSQL pool's connections by state",
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      },
    });
    new Gauge({
      name: 'rewards_database_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({ name: 'rewards_database_pool_max_connections', help: "PostgreSQL pool's size", registers }).set(pool.options.max ?? 10);
  }
  const sqliteFile = database.dialect === 'sqlite' && database.path !== '' && database.path !== ':memory:' ? database.path : undefined;
  const sqliteBytes = new Gauge({
    name: 'rewards_sqlite_file_bytes',
    help: "The SQLite database's files: the database and its write-ahead log",
    labelNames: ['file'],
    registers,
  });
  const freeBytes = new KnownGauge(
    registry,
    'rewards_sqlite_filesystem_free_bytes',
    "Bytes free to the portal on the SQLite file's filesystem",
  );
  const sizeBytes = new KnownGauge(registry, 'rewards_sqlite_filesystem_size_bytes', "Size of the SQLite file's filesystem");

  // The daily expiry of this process.
  let expiryRuns: () => Readonly<Partial<Record<ExpiryRunOutcome, ExpiryRunRecord>>> = () => ({});
  new Gauge({
    name: 'rewards_expiry_last_run_timestamp_seconds',
    help: "When this process's daily expiry last ended with each outcome (done, busy: another process ran it, failed)",
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, run] of Object.entries(expiryRuns())) if (run) this.set({ outcome }, run.at.getTime() / 1000);
    },
  });
  new KnownGauge(
    registry,
    'rewards_expiry_last_run_points_expired',
    'Points expired by the last run done here, all clients',
    () => expiryRuns().done?.points,
  );
  new KnownGauge(
    registry,
    'rewards_expiry_last_run_participants',
    'Participants whose points expired in the last run done here',
    () => expiryRuns().done?.participants,
  );

  const readDatabase = async (): Promise<void> => {
    const started = performance.now();
    const [outbox, jobRows] = await Promise.all([outboxStanding(db, CAP), countJobsByState(db, COUNTED_JOB_STATES, CAP)]);
    databaseSeconds.value = (performance.now() - started) / 1000;
    outboxPending.value = outbox.pending;
    outboxFailed.value = outbox.failed;
    outboxOldest.value = outbox.oldestPendingAt ? Math.max(0, (Date.now() - Date.parse(outbox.oldestPendingAt)) / 1000) : 0;
    jobs.reset();
    for (const row of jobRows) jobs.set({ kind: row.kind, state: row.state }, row.count);
  };

  const readFiles = async (path: string): Promise<void> => {
    const sizeOf = (file: string) =>
      stat(file).then(
        (s) => s.size,
        () => 0,
      );
    const [main, wal, fs] = await Promise.all([sizeOf(path), sizeOf(`${path}-wal`), statfs(dirname(path))]);
    sqliteBytes.set({ file: 'database' }, main);
    sqliteBytes.set({ file: 'wal' }, wal);
    freeBytes.value = fs.bavail * fs.bsize;
    sizeBytes.value = fs.blocks * fs.bsize;
  };

  // Scrapes that arrive together share one read; a read still running past its deadline (a
  // database that hangs) is waited on again rather than joined by another, so the scrapes never
  // hold more than one read's connections.
  let refreshing: Promise<void> | undefined;
  let databaseRead: Promise<void> | undefined;
  const refresh = (): Promise<void> =>
    (refreshing ??= (async () => {
      const reads = [
        withDeadline((databaseRead ??= readDatabase().finally(() => (databaseRead = undefined))), DATABASE_DEADLINE_MS).then(
          () => databaseUp.set(1),
          () => {
            // Stale figures would look current: the database's gauges go until it answers again.
            databaseUp.set(0);
            for (const gauge of [databaseSeconds, outboxPending, outboxOldest, outboxFailed, jobs]) gauge.reset();
          },
        ),
      ];
      if (sqliteFile)
        reads.push(
          readFiles(sqliteFile).catch(() => {
            sqliteBytes.reset();
            freeBytes.reset();
            sizeBytes.reset();
          }),
        );
      await Promise.all(reads);
    })().finally(() => (refreshing = undefined)));

  const onResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    inFlight -= 1;
    const route = request.routeOptions.url ?? UNMATCHED;
    const status = reply.statusCode;
    durations.observe(request.method, route, status, reply.elapsedTime / 1000);
    const signIn = SIGN_IN_ROUTES.get(route);
    const outcome = signIn?.redirects ? request.signInOutcome : signIn && outcomeOf(status);
    if (signIn && outcome) signIns.inc({ who: signIn.who, step: signIn.step, outcome });
    done();
  };

  return {
    contentType: registry.contentType,
    instrument(app) {
      app.addHook('onRequest', (_request, _reply, done) => {
        inFlight += 1;
        done();
      });
      app.addHook('onResponse', onResponse);
      // A caller that went away gets no onResponse (the reply never finishes).
      app.addHook('onRequestAbort', (_request, done) => {
        inFlight -= 1;
        aborted.inc();
        done();
      });
      // Every 429 leaves as an ApiError through here (http/error-handler.ts sends it).
      app.addHook('onError', (_request, _reply, error, done) => {
        if (error instanceof ApiError && error.statusCode === 429) limitHits.inc({ limit: LIMITS.get(error.errorCode) ?? OTHER_LIMIT });
        done();
      });
    },
    watchExpiry(lastRuns) {
      expiryRuns = lastRuns;
    },
    async scrape() {
      await refresh();
      return registry.metrics();
    },
  };
}

function outcomeOf(status: number): SignInOutcome {
  if (status < 400) return 'success';
  if (status === 429) return 'throttled';
  return status < 500 ? 'failure' : 'error';
}

/** The work's result, or a rejection once `ms` have passed (the work goes on, its result unread). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The public port answers /metrics as any unknown path (404), never with the page. */
export function refuseMetricsOnPublicPort(app: FastifyInstance): void {
  app.all(METRICS_PATH, (_request, reply) => reply.callNotFound());
}
