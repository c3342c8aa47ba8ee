import type { Db } from '../../db/database.ts';
import { dayIn } from './policy.ts';
import { clientsToExpire } from './run-store.ts';
import { expirePoints, type ExpiryRunResult } from './run.ts';

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

/** Work that follows the day's expiry (e.g. the expiry reminders), with the same clock. */
export type AfterExpiryStep = (db: Db, now: Date) => Promise<void>;

export interface DailyExpiryOptions {
  db: Db;
  log: ExpiryLog;
  /** Injectable clock; the timers are the global ones, so tests drive both with fake timers. */
  now?: () => Date;
  /** How often to look for a new day; default an hour. */
  checkEveryMs?: number;
  afterSteps?: readonly AfterExpiryStep[];
}

/** The expiry as of today in each client's zone, then the steps after it. */
export async function runDailyExpiry(
  db: Db,
  options: { now?: () => Date; afterSteps?: readonly AfterExpiryStep[] } = {},
): Promise<ExpiryRunResult> {
  const now = options.now ?? (() => new Date());
  const result = await expirePoints(db, { now });
  for (const step of options.afterSteps ?? []) await step(db, now());
  return result;
}

export interface DailyExpiry {
  /** Stops the timer and waits for a run under way. Call before the database closes. */
  stop(): Promise<void>;
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

  const tick = (): void => {
    if (stopped || running) return;
    running = (async () => {
      try {
        const days = (await clientsToExpire(db)).map((client) => `${client.id}:${dayIn(now(), client.time_zone)}`).join(',');
        if (days === lastDays) return;
        const result = await runDailyExpiry(db, { now, afterSteps: options.afterSteps ?? [] });
        // Busy: another process runs it; this one looks again at the next check.
        if (result.status === 'busy') return;
        lastDays = days;
        const expired = result.clients.filter((client) => client.participants > 0);
        for (const client of expired)
          log.info(
            `expiry ${client.clientId} as of ${client.asOf}: ${client.points} points of ${client.participants} participants (${client.lots} lots)`,
          );
      } catch (error) {
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
  };
}
