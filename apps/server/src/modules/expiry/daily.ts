import type { Db } from '../../db/database.ts';
import { dayIn } from './policy.ts';
import { clientsToExpire, expirePoints, ExpiryStoppedError, type ExpiryRunResult } from './run.ts';

/**
 * The server's daily expiry (docs/decisions/057): every hour it looks whether a new day has begun
 * in some client's time zone since this process last ran, and if so runs the expiry (as of each
 * client's today), then the steps after it (the reminder mails of issue 19 are meant to be one).
 * At start it runs once, so a process that was down at midnight catches up. Several processes
 * may do this: the run's lease lets one at a time work, and the run is idempotent.
 */

export interface ExpiryLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Work that goes before or after the day's expiry (the release of pending points, the expiry reminders), with the same clock. */
export type DailyStep = (db: Db, now: Date) => Promise<void>;

export interface DailyExpiryOptions {
  db: Db;
  log: ExpiryLog;
  /** Injectable clock; the timers are the global ones, so tests drive both with fake timers. */
  now?: () => Date;
  /** How often to look for a new day; default an hour. */
  checkEveryMs?: number;
  /** Work that goes before the day's expiry, with the same clock: the release of pending points (decision 098), so released points count before anything expires. */
  beforeSteps?: readonly DailyStep[];
  afterSteps?: readonly DailyStep[];
}

/** The expiry as of today in each client's zone, then the steps after it. */
export async function runDailyExpiry(
  db: Db,
  options: {
    now?: () => Date;
    beforeSteps?: readonly DailyStep[];
    afterSteps?: readonly DailyStep[];
    stopping?: () => boolean;
  } = {},
): Promise<ExpiryRunResult> {
  const now = options.now ?? (() => new Date());
  for (const step of options.beforeSteps ?? []) {
    if (options.stopping?.()) throw new ExpiryStoppedError('The steps before the expiry run were left to the next run');
    await step(db, now());
  }
  const result = await expirePoints(db, { now, stopping: options.stopping });
  for (const step of options.afterSteps ?? []) {
    // Shutting down: the steps are the next run's (a process runs at start).
    if (options.stopping?.()) throw new ExpiryStoppedError('The steps after the expiry run were left to the next run');
    await step(db, now());
  }
  return result;
}

/** How a run of this process ended: done, another process held the lease (busy), or failed. */
export type ExpiryRunOutcome = 'done' | 'busy' | 'failed';

/** This process's last run of each outcome (its metrics, decision 079): when it ended and, done, what expired. */
export interface ExpiryRunRecord {
  at: Date;
  points: number;
  participants: number;
}

export interface DailyExpiry {
  /** Stops the timer and waits for a run under way to end its transaction and free its lease. Call before the database closes. */
  stop(): Promise<void>;
  /** The last run of each outcome since this process started; kept in memory only, each process its own. */
  lastRuns(): Readonly<Partial<Record<ExpiryRunOutcome, ExpiryRunRecord>>>;
  /** Resolves when the run under way (if any) has finished; for tests. */
  idle(): Promise<void>;
}

export function startDailyExpiry(options: DailyExpiryOptions): DailyExpiry {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const checkEveryMs = options.checkEveryMs ?? 60 * 60_000;
  /** Each client's day when this process last completed a run: a new day anywhere runs it again. */
  let lastDays = '';
  let running: Promise<void> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const lastRuns: Partial<Record<ExpiryRunOutcome, ExpiryRunRecord>> = {};

  const tick = (): void => {
    if (stopped || running) return;
    running = (async () => {
      try {
        const days = (await clientsToExpire(db)).map((client) => `${client.id}:${dayIn(now(), client.time_zone)}`).join(',');
        // An installation without clients has no day to wait for: each check is a run over none, so
        // that its metrics show the expiry done rather than missed (decision 079).
        if (days === lastDays && days !== '') return;
        const result = await runDailyExpiry(db, {
          now,
          beforeSteps: options.beforeSteps ?? [],
          afterSteps: options.afterSteps ?? [],
          stopping: () => stopped,
        });
        // Busy: another process runs it; this one looks again at the next check.
        if (result.status === 'busy') {
          lastRuns.busy = { at: now(), points: 0, participants: 0 };
          return;
        }
        lastDays = days;
        const expired = result.clients.filter((client) => client.participants > 0);
        lastRuns.done = {
          at: now(),
          points: expired.reduce((sum, client) => sum + client.points, 0),
          participants: expired.reduce((sum, client) => sum + client.participants, 0),
        };
        for (const client of expired)
          log.info(
            `expiry ${client.clientId} as of ${client.asOf}: ${client.points} points of ${client.participants} participants (${client.lots} lots)`,
          );
      } catch (error) {
        // A shutdown between batches: not a failure, the lease is free for the next process (decision 081).
        if (error instanceof ExpiryStoppedError) {
          log.info('expiry run stopped for the shutdown; the committed batches stay, the next run does the rest');
          return;
        }
        lastRuns.failed = { at: now(), points: 0, participants: 0 };
        // Only the error's name: a database message may quote values.
        log.warn(`expiry run failed (${(error as Error).name ?? 'error'}); retrying at the next check`);
      }
    })().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(tick, checkEveryMs).unref();
    });
  };

  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    async idle() {
      while (running) await running;
    },
    lastRuns: () => lastRuns,
  };
}
