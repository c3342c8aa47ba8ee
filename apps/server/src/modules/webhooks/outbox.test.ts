import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { ulid } from './ids.ts';
import { tellWebhooks } from './service.ts';
import { addEndpointRow } from './test-support.ts';

describe.each(dialects)('tellWebhooks, the outbox (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('writes the event and one pending delivery per enabled endpoint taking the kind, in the caller transaction', async () => {
    const client = `c-${ulid().slice(-8).toLowerCase()}`;
    const all = await addEndpointRow(database.db, client, ['*']);
    const credits = await addEndpointRow(database.db, client, ['points.credited']);
    await addEndpointRow(database.db, client, ['code.redeemed']);
    await addEndpointRow(database.db, client, ['*'], 0);
    await database.db.transaction().execute((trx) =>
      tellWebhooks(trx, {
        clientId: client,
        kind: 'points.credited',
        username: 'ann',
        data: { points: 5, balanceAfter: 15, entryId: 'e1' },
      }),
    );
    const events = await database.db.selectFrom('webhook_events').selectAll().where('client_id', '=', client).execute();
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.id).toMatch(/^msg_[0-9A-Z]{26}$/);
    expect(event.username).toBe('ann');
    expect(JSON.parse(event.payload)).toEqual({
      type: 'points.credited',
      timestamp: event.created_at,
      data: { client, username: 'ann', occurredAt: event.created_at, points: 5, balanceAfter: 15, entryId: 'e1' },
    });
    const deliveries = await database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', event.id).execute();
    expect(deliveries.map((d) => d.endpoint_id).sort()).toEqual([all, credits].sort());
    expect(deliveries.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
  });

  it('writes nothing when the transaction rolls back, nor for a client without an endpoint for the kind', async () => {
    const client = `c-${ulid().slice(-8).toLowerCase()}`;
    await addEndpointRow(database.db, client, ['code.redeemed']);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await tellWebhooks(trx, { clientId: client, kind: 'code.redeemed', username: 'bob', data: {} });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await database.db
      .transaction()
      .execute((trx) => tellWebhooks(trx, { clientId: client, kind: 'points.debited', username: 'bob', data: {} }));
    const count = await database.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', '=', client)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});

// A pure rule: once, not per engine (decision 088).
describe('webhook delivery ids', () => {
  it('makes ids that sort in the order they were made, also within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => ulid(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });
});
