import { readFileSync } from 'node:fs';

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
  mb: number | undefined;
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
