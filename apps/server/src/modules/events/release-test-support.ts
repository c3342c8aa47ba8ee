import type { Db } from '../../db/database.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { createRule } from '../earning-rules/service.ts';
import { recordEvent } from './service.ts';

/** A purchase's day for the release tests: pending 10 days, so released by the run of 2026-03-12 (UTC) on. */
export const PENDING_PURCHASE_AT = '2026-03-01T10:00:00.000Z';
export const RELEASE_AT = '2026-03-12T00:30:00.000Z';

/**
 * A client of its own (UTC) whose `participants` generated participants each have `events`
 * purchases of 10 points pending 10 days (decision 098's release run has them to release).
 */
export async function addClientWithPendingLines(db: Db, clientId: string, participants: number, events: number): Promise<void> {
  await insertTestClient(db, clientId, { time_zone: 'UTC', expiry_policy: JSON.stringify({ type: 'rolling', months: 12 }) });
  await addGeneratedParticipants(db, clientId, participants);
  await createRule(
    db,
    { kind: 'operator', name: 'release-test', origin: 'test' },
    clientId,
    { id: 'held', name: 'Held', event: 'purchase', earn: { points: 10 }, pendingDays: 10, text: { 'en-US': '10 points, held 10 days' } },
    'release test',
    { now: new Date('2026-01-01T00:00:00Z') },
  );
  const caller = { keyId: 'test-key', clientId, keyName: 'test', scopes: [] };
  const posted: Array<Promise<unknown>> = [];
  for (let n = 0; n < participants; n += 1)
    for (let e = 0; e < events; e += 1)
      posted.push(
        recordEvent(
          db,
          caller,
          { id: `${clientId}-${n}-${e}`, type: 'purchase', username: generatedUsername(n), occurredAt: PENDING_PURCHASE_AT },
          new Date('2026-03-01T10:00:01Z'),
        ),
      );
  await Promise.all(posted);
}

/** [balance, pending] of each generated participant of the client, in order. */
export async function balancesAndPending(db: Db, clientId: string): Promise<Array<[number, number]>> {
  const rows = await db
    .selectFrom('participants')
    .select(['balance', 'pending_points'])
    .where('client_id', '=', clientId)
    .orderBy('id')
    .execute();
  return rows.map((r) => [Number(r.balance ?? 0), Number(r.pending_points)]);
}
