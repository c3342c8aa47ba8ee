import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * What a scrape reads of the database (decision 079), read-only over the mail and jobs modules'
 * tables as the reports are (decision 067). Every read goes through an index and stops at CAP
 * rows, so a scrape costs the same however much history the tables hold: SQLite runs them on the
 * event loop, between requests.
 */

/** Rows a count reads at most: a gauge at CAP means "CAP or more". */
export const CAP = 10_000;

export interface OutboxStanding {
  /** Mails not delivered yet: waiting for their attempt or being sent (at most CAP). */
  pending: number;
  /** created_at of the oldest of them (ISO), undefined when none. */
  oldestPendingAt: string | undefined;
  /** Mails given up (at most CAP). */
  failed: number;
}

/** Through mail_outbox_due_idx (status, next_attempt_at): only pending, sending and failed rows are read, never the sent ones. */
export async function outboxStanding(db: Db): Promise<OutboxStanding> {
  const pending = await db
    .selectFrom((eb) => eb.selectFrom('mail_outbox').select('created_at').where('status', 'in', ['pending', 'sending']).limit(CAP).as('p'))
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('p.created_at').as('oldest')])
    .executeTakeFirstOrThrow();
  const failed = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('mail_outbox')
        .select(sql<number>`1`.as('one'))
        .where('status', '=', 'failed')
        .limit(CAP)
        .as('f'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { pending: Number(pending.n), oldestPendingAt: pending.oldest ?? undefined, failed: Number(failed.n) };
}

/** The states a job is counted in: the ones it can still leave, and failed. Done and discarded jobs are history (the console lists them). */
export const COUNTED_JOB_STATES = ['staging', 'previewing', 'staged', 'running', 'failed'] as const;

/** Jobs by kind and state, through jobs_status_idx. */
export async function jobCounts(db: Db): Promise<Array<{ kind: string; state: string; count: number }>> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('jobs')
        .select(['kind', 'status'])
        .where('status', 'in', [...COUNTED_JOB_STATES])
        .limit(CAP)
        .as('j'),
    )
    .select((eb) => ['j.kind', 'j.status', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['j.kind', 'j.status'])
    .execute();
  return rows.map((row) => ({ kind: row.kind, state: row.status, count: Number(row.n) }));
}
