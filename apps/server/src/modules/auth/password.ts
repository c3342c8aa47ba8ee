import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id (the library's default algorithm) with OWASP's minimum parameters: 19 MiB, 2 passes.
 * The library runs it off the event loop.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Each run holds its 19 MiB for as long as it computes, and libuv runs up to four at once: on a
 * 2-core machine four sign-ins in flight took 76 MB for no more sign-ins per second (the work is
 * CPU-bound). So no more run at once than there are cores; the others wait their turn, holding
 * nothing (docs/decisions/031).
 */
const MAX_AT_ONCE = Math.max(1, availableParallelism());
let running = 0;
const waiting: Array<() => void> = [];

async function oneAtATimePerCore<T>(work: () => Promise<T>): Promise<T> {
  if (running < MAX_AT_ONCE) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return oneAtATimePerCore(() => hash(password, OPTIONS));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return oneAtATimePerCore(() => verify(passwordHash, password));
}

/** Verified against when the username is unknown, so both failures cost the same time. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-that-matches-nothing');
  return decoyHash;
}
