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
