import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { API_BASE, CLIENT_HEADER } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { DEMO_ORIGIN } from '../../../test/test-app.ts';
import { hashPassword } from '../auth/password.ts';
import { withSearchKeys } from '../participants/search-keys.ts';

/** A participant of the demo client made for one test, so tests share no state. */
export async function addParticipant(
  t: { database: { db: Db } },
  person: {
    username: string;
    lastName: string;
    accountNumber: string;
    status?: 'pending' | 'active' | 'inactive';
    email?: string;
    password?: string;
  },
): Promise<string> {
  const id = randomUUID();
  await t.database.db
    .insertInto('participants')
    .values(
      withSearchKeys({
        id,
        client_id: 'acme',
        username: person.username,
        username_key: person.username.toLowerCase(),
        email: person.email ?? `${person.username}@example.com`,
        first_name: 'Test',
        last_name: person.lastName,
        password_hash: person.password ? await hashPassword(person.password) : '',
        status: person.status ?? 'pending',
        locale: 'fr-FR',
        account_number: person.accountNumber,
        offers_merchandise: 1,
        offers_experiences: 1,
        ots_enabled: 1,
        privacy_ack_version: 0,
        balance: null,
        created_at: new Date().toISOString(),
      }),
    )
    .execute();
  return id;
}

/** A call from another network address (the address throttles count per address). */
export function postFrom(t: Pick<TestApp, 'app'>, address: string, path: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `${API_BASE}${path}`,
    remoteAddress: address,
    headers: { 'content-type': 'application/json', [CLIENT_HEADER]: DEMO_ORIGIN },
    payload: JSON.stringify(body),
  });
}
