import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/** argon2id's cost: memory in KiB and passes (one lane). */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
}

/** OWASP's minimum for argon2id: 19 MiB, 2 passes. What every installation hashes with (PASSWORD_HASH_COST=owasp). */
export const OWASP_MINIMUM: PasswordHashCost = { memoryCost: 19_456, timeCost: 2 };

/**
 * argon2's own floor (8 KiB, 1 pass): a fraction of a millisecond instead of tens. For test runs
 * only, through PASSWORD_HASH_COST=test-only-minimum, which a production start refuses (decision 088).
 */
export const TEST_ONLY_MINIMUM: PasswordHashCost = { memoryCost: 8, timeCost: 1 };

/**
 * argon2id (the library's default algorithm) at the configured cost, OWASP's until the process's
 * configuration says otherwise. The library runs it off the event loop. A hash carries its own
 * parameters, so hashes made at any cost keep verifying.
 */
let options = { ...OWASP_MINIMUM, parallelism: 1 };

/** The cost new hashes are made at, from the configuration (loadConfig's passwordHashCost); set at start. */
export function usePasswordHashCost(cost: PasswordHashCost): void {
  options = { ...cost, parallelism: 1 };
}

export function currentPasswordHashCost(): PasswordHashCost {
  return { memoryCost: options.memoryCost, timeCost: options.timeCost };
}

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
  return oneAtATimePerCore(() => hash(password, options));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return oneAtATimePerCore(() => verify(passwordHash, password));
}

/** Verified against when the username is unknown, so both failures cost the same time: made again if the cost changes. */
let decoy: { cost: string; hash: Promise<string> } | undefined;
export function decoyPasswordHash(): Promise<string> {
  const cost = `${options.memoryCost}/${options.timeCost}`;
  if (decoy?.cost !== cost) decoy = { cost, hash: hashPassword('decoy-password-that-matches-nothing') };
  return decoy.hash;
}
