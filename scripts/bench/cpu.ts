import { readFileSync } from 'node:fs';

/**
 * Where the CPU went during a load (Linux /proc): the whole machine's busy share and each given
 * process's use in cores. The scale-out part reports it: two processes can only beat one if the
 * machine has idle CPU left while one runs (decision 026).
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

function processTicks(pid: number): number {
  try {
    // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces.
    const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(after[11]) + Number(after[12]);
  } catch {
    return 0;
  }
}

export function cpuSnapshot(pids: number[]): CpuSnapshot {
  return { ...machineTicks(), processes: pids.map(processTicks) };
}

export function cpuUse(before: CpuSnapshot, after: CpuSnapshot, cores: number): CpuUse {
  const total = after.total - before.total;
  const perCore = total / cores;
  return {
    machineBusy: total > 0 ? Math.round(((after.busy - before.busy) / total) * 100) / 100 : 0,
    processCores: after.processes.map((ticks, i) => (perCore > 0 ? Math.round(((ticks - (before.processes[i] ?? 0)) / perCore) * 100) / 100 : 0)),
  };
}
