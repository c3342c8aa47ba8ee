import type { Db } from '../../db/database.ts';
import { ulid } from './ids.ts';

/**
 * An endpoint row written straight into the table, for tests that only look at the outbox: its
 * URL takes nothing (port 9, discard) and its secret is no sealed secret, so nobody delivers to it.
 */
export async function addEndpointRow(db: Db, clientId: string, kinds: readonly string[] = ['*'], enabled = 1): Promise<string> {
  const id = `we_${ulid()}`;
  const at = new Date().toISOString();
  await db
    .insertInto('webhook_endpoints')
    .values({
      id,
      client_id: clientId,
      url: 'http://127.0.0.1:9/hook',
      event_kinds: JSON.stringify(kinds),
      enabled,
      secret_sealed: 'unused in these tests',
      previous_secret_sealed: null,
      previous_secret_until: null,
      created_by: 'test',
      created_at: at,
      updated_at: at,
      disabled_at: null,
      disabled_reason: null,
      failing_since: null,
    })
    .execute();
  return id;
}
