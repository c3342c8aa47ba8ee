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
