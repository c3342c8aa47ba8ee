import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where the CPU went during a load (Linux /proc): the whole machine's busy share and each given
 * process's use in cores. The scale-out part reports it: two processes can only beat one if the
 * machine has idle CPU left while one runs (decisions 016, 034).
 */
export interface CpuSnapshot {
  busy: number;
  total: number;
  processes: number[];
}

export interface CpuUse {
  /** Busy share of all cores, 0–1 (the neighbours' work included on a shared machine). */
  machineBusy: number;
  /** Cores used by each given process (1 = one core fully). */
  processCores: number[];
}

function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  // idle + iowait
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Fields after the command name (field 2, which may hold spaces): index 0 is field 3 (state). */
function statFields(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
  } catch {
    return undefined;
  }
}

export function processTicks(pid: number): number {
  const after = statFields(pid);
  // utime and stime are fields 14 and 15.
  return after ? Number(after[11]) + Number(after[12]) : 0;
}

/**
 * CPU ticks of a process and all its children, those alive and those that have exited: a
 * PostgreSQL postmaster and its backends (a backend that ends while we measure is reaped by
 * the postmaster, whose cutime/cstime, fields 16 and 17, then hold its time).
 */
export function processTreeTicks(pid: number): number {
  const own = statFields(pid);
  if (!own) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = statFields(entry);
    // Field 4 is the parent's pid.
    if (child && Number(child[1]) === pid) ticks += Number(child[11]) + Number(child[12]) + Number(child[13]) + Number(child[14]);
  }
  return ticks;
}

/** Linux clock ticks per second (USER_HZ): 100 on every kernel configuration we run on. */
export const TICKS_PER_SECOND = 100;

/** This process's own CPU (the bench and the autocannon load it generates), in µs. */
export function ownCpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export function cpuSnapshot(pids: number[]): CpuSnapshot {
  return { ...machineTicks(), processes: pids.map(processTicks) };
}

export function cpuUse(before: CpuSnapshot, after: CpuSnapshot, cores: number): CpuUse {
  const total = after.total - before.total;
  const perCore = total / cores;
  return {
    machineBusy: total > 0 ? Math.round(((after.busy - before.busy) / total) * 100) / 100 : 0,
    processCores: after.processes.map((ticks, i) =>
      perCore > 0 ? Math.round(((ticks - (before.processes[i] ?? 0)) / perCore) * 100) / 100 : 0,
    ),
  };
}
