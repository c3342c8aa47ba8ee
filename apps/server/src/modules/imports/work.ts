import type { Transaction } from 'kysely';
import type { ImportKind } from '@rewards/contract/console-imports';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { applyParticipantBatch, type ImportLine } from '../participants/enrolment.ts';
import { postPointsBatch, previewPointsBatch } from './points.ts';
import type { LineProblem, PointsLine } from './points-lines.ts';
import type { BatchCounts, PreviewState } from './service.ts';
import { eventsPreviewState, previewEventsLines, runEventsLines } from './events.ts';

/**
 * One batch of staged lines through the kind's rules: written (the run, in the caller's
 * transaction) or only counted (the preview). The lines come checked, repeats within the file
 * already turned into rejects (service.ts readBatch).
 */

type Item = PointsLine | ImportLine | LineProblem;
const isProblem = (item: Item): item is LineProblem => 'reason' in item;

export async function previewBatch(db: Db, kind: ImportKind, items: unknown[], state: PreviewState): Promise<BatchCounts> {
  if (kind === 'events') return previewEventsLines(db, state.clientId, state.jobId ?? '', items, (state.events ??= eventsPreviewState()));
  if (kind === 'points') {
    // Reads only; typed as a transaction for the batch function's sake.
    return previewPointsBatch(
      db as Transaction<Database>,
      state.clientId,
      items as Array<PointsLine | LineProblem>,
      state.runAt,
      state.balances,
    );
  }
  return participantsBatch(db, state.clientId, items as Item[], '', new Date(), false);
}

export async function runBatch(
  trx: Transaction<Database>,
  clientId: string,
  kind: ImportKind,
  items: unknown[],
  runAt: Date,
  passwordHash: string,
  jobId = '',
): Promise<BatchCounts> {
  if (kind === 'events') return runEventsLines(trx, clientId, items, runAt, jobId);
  if (kind === 'points') return postPointsBatch(trx, clientId, items as Array<PointsLine | LineProblem>, runAt);
  return participantsBatch(trx, clientId, items as Item[], passwordHash, runAt, true);
}

async function participantsBatch(
  db: Db,
  clientId: string,
  items: Item[],
  passwordHash: string,
  now: Date,
  write: boolean,
): Promise<BatchCounts> {
  const problems: LineProblem[] = [];
  const lines: ImportLine[] = [];
  for (const item of items) {
    if (isProblem(item)) problems.push(item);
    else lines.push(item as ImportLine);
  }
  const outcome = await applyParticipantBatch(db, clientId, lines, passwordHash, now, { write });
  return {
    added: outcome.added,
    updated: outcome.updated,
    unchanged: outcome.unchanged,
    ...(write ? { sessionsEnded: outcome.sessionsEnded } : {}),
    problems: [...problems, ...outcome.rejects].sort((a, b) => a.line - b.line),
  };
}
