import { randomBytes } from 'node:crypto';
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { API_SCOPES, PROGRAM_API_BASE, type ApiScope, type ProgramParticipantRequest } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { createApiKey, revokeClientApiKey } from '../api-keys/service.ts';

/** A short random tag: each test makes its own participants, keys and externalIds with it. */
export const tag = () => randomBytes(5).toString('hex');

/** A key of the client with these scopes, its limits far above what a test sends (the rate is part A's to test). */
export async function makeKey(db: Db, clientId: string, scopes: readonly ApiScope[] = API_SCOPES): Promise<{ key: string; id: string }> {
  const made = await createApiKey(db, {
    clientId,
    name: `program-api test ${tag()}`,
    scopes,
    ratePerSecond: 10_000,
    burst: 100_000,
    createdBy: 'program-api tests',
    actorKind: 'operator',
    reason: 'program API tests',
  });
  return { key: made.key, id: made.view.id };
}

export async function revokeKey(db: Db, clientId: string, keyId: string): Promise<void> {
  await revokeClientApiKey(db, { clientId, keyId, revokedBy: 'program-api tests', actorKind: 'operator', reason: 'program API tests' });
}

/** A call to the program API: JSON, the bearer key if given. */
export function programCall(
  app: FastifyInstance,
  method: HTTPMethods,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `${PROGRAM_API_BASE}${path}`,
    headers: {
      ...(options.body !== undefined || options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    ...(options.rawBody === undefined ? {} : { payload: options.rawBody }),
    ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
  });
}

/** A participant's body with an account number of its own. */
export function participantBody(overrides: Partial<ProgramParticipantRequest> = {}): ProgramParticipantRequest {
  return {
    firstName: 'Pat',
    lastName: 'Integrator',
    email: `pat.${tag()}@example.com`,
    accountNumber: `API-${tag()}`,
    offerings: { merchandise: true, experiences: false, ots: true },
    programs: ['Sales Incentive 2026'],
    ...overrides,
  };
}
