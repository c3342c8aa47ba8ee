/*
 * What the import benches share (scripts/bench/imports.ts, import-paths.ts, events-import.ts): a
 * measured child process run and its output read, and the phases it times with the bytes each
 * wrote (/proc/self/io write_bytes).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `node argv…` from the repository's root; its standard output, or an error naming `what` and the last line of its standard error. */
export function runChild(argv: string[], env: NodeJS.ProcessEnv, what: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`${what} exited ${code}: ${err.trim().split('\n').at(-1)}`))));
  });
}

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** What a measured child cost: its wall and CPU seconds, what it wrote (and had cancelled), its peak resident memory. */
export interface ChildCost {
  wallSeconds: number;
  cpuSeconds: number;
  writtenMb: number;
  cancelledMb: number;
  peakRssMb: number;
}

/**
 * runChild with the import-stats.js preload's figures: `statsFile` is where the child writes them
 * (IMPORT_STATS_FILE, which this sets); its standard output beside them.
 */
export async function measureChild(
  argv: string[],
  env: NodeJS.ProcessEnv,
  statsFile: string,
  what: string,
): Promise<{ out: string; cost: ChildCost }> {
  const started = performance.now();
  const out = await runChild(argv, { ...env, IMPORT_STATS_FILE: statsFile }, what);
  const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as {
    writeBytes: number;
    cancelledWriteBytes: number;
    peakRssBytes: number;
    cpuSeconds: number;
  };
  return {
    out,
    cost: {
      wallSeconds,
      cpuSeconds: Math.round(stats.cpuSeconds * 10) / 10,
      writtenMb: mb(stats.writeBytes),
      cancelledMb: mb(stats.cancelledWriteBytes),
      peakRssMb: mb(stats.peakRssBytes),
    },
  };
}

/** Bytes this process has written to storage so far; -1 where /proc/self/io cannot be read. */
export function writtenBytes(): number {
  try {
    return Number(/^write_bytes: (\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? -1);
  } catch {
    return -1;
  }
}

/** A timer of phases into `phases`: per phase its wall seconds, and `<phase>MB` written where known. */
export function phaseTimer(phases: Record<string, number>) {
  return async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const written = writtenBytes();
    const result = await work();
    phases[name] = Math.round(performance.now() - started) / 1000;
    if (written >= 0) phases[`${name}MB`] = Math.round((writtenBytes() - written) / 1_048_576);
    return result;
  };
}
