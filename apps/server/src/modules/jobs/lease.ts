import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/database.ts';
import { claimLease, endLease, extendLease, insertLease } from './store.ts';

/**
 * A background job's lease (docs/decisions/057): when several processes serve one database, one
 * at a time runs the job. A row per job names its holder and until when; a process takes it if
 * nobody holds it or the holder's time ran out (it died), extends it while it works, and ends it
 * when done. The mail worker's claim is per outbox row and stays so; this is per job, and the one
 * issue 20's jobs are meant to use.
 *
 * A holder that stops extending (killed, or stalled longer than the lease) loses it: work done
 * under a lease must be safe to run twice (the expiry run is idempotent), the lease only keeps
 * two processes from doing it at the same time.
 */
export interface JobLease {
  readonly name: string;
  readonly holder: string;
  /** Pushes the end on; false if the lease was lost (then stop working). */
  extend(): Promise<boolean>;
  /** Gives it up, so another process may take it at once; in the caller's transaction if one is given (with the change that ends the work). */
  end(trx?: Db): Promise<void>;
}

export interface LeaseOptions {
  /** How long a take or an extension holds; default 2 minutes. */
  ttlMs?: number;
  /** Injectable clock (tests); default the wall clock. */
  now?: () => Date;
  /** Who holds it; default host, process id and a random part. */
  holder?: string;
}

const TTL_MS = 2 * 60_000;

export function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The job's lease if this process can take it now, else undefined (another process holds it). */
export async function takeLease(db: Db, name: string, options: LeaseOptions = {}): Promise<JobLease | undefined> {
  const now = options.now ?? (() => new Date());
  const ttlMs = options.ttlMs ?? TTL_MS;
  const holder = options.holder ?? leaseHolder();
  const until = () => new Date(now().getTime() + ttlMs).toISOString();
  const taken = (await insertLease(db, name, holder, until())) || (await claimLease(db, name, holder, now().toISOString(), until()));
  if (!taken) return undefined;
  return {
    name,
    holder,
    extend: () => extendLease(db, name, holder, now().toISOString(), until()),
    end: (trx) => endLease(trx ?? db, name, holder),
  };
}
