import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of a process in MB, from /proc/<pid>/status (VmRSS); undefined when unreadable. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    const kb = Number(/(\d+)/.exec(line ?? '')?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory read right after one of the bench's loads ended (the load named). */
export interface RssAfterLoad {
  after: string;
  /** Once the work the load left in the server's thread pool had ended (rssAfterLoad): what the budget judges. */
  mb: number | undefined;
  /** At the instant the load's client stopped, its last requests' work possibly still running (shown, not judged). */
  instantMb?: number | undefined;
}

/**
 * Threads of the process's libuv pool (named `libuv-worker`) that are running or waiting for a core
 * (R) or in disk I/O (D); undefined when the threads cannot be read or none carries that name.
 */
export function busyPoolThreads(pid: number): number | undefined {
  let pool = 0;
  let busy = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      } catch {
        continue; // the thread ended meanwhile
      }
      // "tid (name) state …": the name may hold spaces and parentheses, the state follows the last ')'.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'libuv-worker') continue;
      pool += 1;
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'R' || state === 'D') busy += 1;
    }
  } catch {
    return undefined;
  }
  return pool === 0 ? undefined : busy;
}

/** How long the pool must stay idle for its work to count as ended. */
const POOL_QUIET_MS = 25;

/** How long rssAfterLoad waits at most for the pool's work to end (sign-ins of ~15 ms of CPU each, two cores shared). */
export const POOL_IDLE_DEADLINE_MS = 3_000;

/**
 * Resident memory after a load, read once the work its requests left in the server's thread pool
 * has ended (decision 058, 28 Nov). A load by duration stops with requests in flight: for GET loads
 * their rest is microseconds, but a sign-in's argon2id run holds 19 MiB in a pool thread until it
 * ends (~15 ms of CPU), one per core at once, so the instant reading after the sign-ins caught up to
 * 2 × 19 MiB of runs for callers already gone, given back within ~200 ms. The instant reading is
 * returned too. Polls every 5 ms until the pool has been idle for 25 ms, at most
 * POOL_IDLE_DEADLINE_MS (then reads anyway: `waitedMs` says so); a reading takes ~30 ms after a GET
 * load, so V8 gets no idle time to shrink in (its memory reducer waits seconds).
 */
export async function rssAfterLoad(
  pid: number | undefined,
  deadlineMs = POOL_IDLE_DEADLINE_MS,
): Promise<{ mb: number | undefined; instantMb: number | undefined; busyAtInstant: number | undefined; waitedMs: number }> {
  const instantMb = rssMb(pid);
  const busyAtInstant = pid === undefined ? undefined : busyPoolThreads(pid);
  const started = performance.now();
  if (pid !== undefined && busyAtInstant !== undefined) {
    // Idle for POOL_QUIET_MS on end: between one run's end and the next queued one's start the
    // pool is idle for as long as the main thread takes to hand it over.
    let idleSince: number | undefined;
    for (;;) {
      const now = performance.now();
      if (now - started >= deadlineMs) break;
      if ((busyPoolThreads(pid) ?? 0) > 0) idleSince = undefined;
      else if (idleSince === undefined) idleSince = now;
      else if (now - idleSince >= POOL_QUIET_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return { mb: rssMb(pid), instantMb, busyAtInstant, waitedMs: Math.round(performance.now() - started) };
}

/** Issue 18's memory budget: resident memory after every load under this… */
export const MEMORY_CEILING_MB = 200;
/** …and at most this factor above its level after the first load (no growth across loads). */
export const MEMORY_GROWTH_LIMIT = 1.25;

export interface MemoryVerdict {
  firstMb: number | undefined;
  maxMb: number | undefined;
  /** The load after which the maximum was read. */
  maxAfter: string | undefined;
  pass: boolean;
}

/**
 * Judges resident memory across a run's loads: the highest reading under MEMORY_CEILING_MB and
 * at most MEMORY_GROWTH_LIMIT × the reading after the first load. An unreadable reading, or
 * fewer than three loads, cannot show "no growth" and misses.
 */
export function judgeMemory(loads: readonly RssAfterLoad[]): MemoryVerdict {
  const firstMb = loads[0]?.mb;
  const readings = loads.filter((l): l is { after: string; mb: number } => l.mb !== undefined);
  const max = readings.reduce<{ after: string; mb: number } | undefined>((a, b) => (a === undefined || b.mb > a.mb ? b : a), undefined);
  const pass =
    loads.length >= 3 &&
    readings.length === loads.length &&
    firstMb !== undefined &&
    max !== undefined &&
    max.mb < MEMORY_CEILING_MB &&
    max.mb <= MEMORY_GROWTH_LIMIT * firstMb;
  return { firstMb, maxMb: max?.mb, maxAfter: max?.after, pass };
}
