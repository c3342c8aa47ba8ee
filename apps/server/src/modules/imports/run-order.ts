import type { Db } from '../../db/database.ts';
import { usernameKey } from '../participants/service.ts';
import { stagedAfter } from './store.ts';

/**
 * The order a points job's run takes its staged lines in (docs/decisions/091, amended
 * 2026-11-28): by participant (their username key), each participant's lines in file order.
 *
 * Why: a batch of the file's order names a new participant on almost every line, so each commit
 * changed a page of the participants, of the ledger's statement index and of the lots' open index
 * for nearly every line, scattered over those tables, and every commit wrote them all again (the
 * WAL, the savepoint's and statements' journals, then the checkpoint): what a batch wrote grew with
 * the tables, not with the batch. In this order a batch of 20,000 lines names a tenth as many
 * participants (at ten lines each), on neighbouring pages.
 *
 * What a line's outcome depends on is unchanged: a participant's balance moves only by their own
 * lines, which keep their order; a repeat of an external id is found by the staging index (the
 * file's first line wins, whatever is run first); the rejects are kept by line number.
 *
 * Worked out again from the staged lines (which do not change once staged) by whichever process
 * runs or resumes the job, so the job's cursor, a position in this order, means the same to all.
 * Memory: three 4-byte numbers per line and one key per participant named (at 1,000,000 lines over
 * 100,000 participants, ~20 MB while it is worked out, 4 MB kept for the run).
 */
export async function participantOrder(db: Db, jobId: string, usernameColumn: number, staged: number): Promise<Int32Array> {
  const groups = new Map<string, number>();
  // Typed arrays of the staged count (the job's total), grown should more lines be staged.
  let lines: Int32Array = new Int32Array(Math.max(staged, 1));
  let groupOf: Int32Array = new Int32Array(lines.length);
  let count = 0;
  for (let after = 0; ;) {
    const page = await stagedAfter(db, jobId, after, ORDER_PAGE);
    if (page.length === 0) break;
    for (const row of page) {
      // The key the batch resolves the participant by (points.ts): an unreadable line has none.
      const key = row.fields === null ? '' : usernameKey(((JSON.parse(row.fields) as string[])[usernameColumn] ?? '').trim());
      let group = groups.get(key);
      if (group === undefined) {
        group = groups.size;
        groups.set(key, group);
      }
      if (count === lines.length) {
        lines = grown(lines);
        groupOf = grown(groupOf);
      }
      lines[count] = row.line;
      groupOf[count] = group;
      count += 1;
    }
    after = page.at(-1)!.line;
  }
  const keys = [...groups.keys()];
  const sorted = keys.map((_, group) => group).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
  const rank = new Int32Array(keys.length);
  sorted.forEach((group, position) => (rank[group] = position));
  // A counting sort by the key's rank; stable, so each participant's lines stay in file order.
  const start = new Int32Array(keys.length + 1);
  for (let i = 0; i < count; i += 1) start[rank[groupOf[i]!]! + 1]! += 1;
  for (let r = 0; r < keys.length; r += 1) start[r + 1]! += start[r]!;
  const order = new Int32Array(count);
  for (let i = 0; i < count; i += 1) order[start[rank[groupOf[i]!]!]!++] = lines[i]!;
  return order;
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Staged lines read per page while the order is worked out. */
const ORDER_PAGE = 20_000;
