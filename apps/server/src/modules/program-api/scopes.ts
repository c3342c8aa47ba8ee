import type { FastifyRequest, FastifySchema, onRequestAsyncHookHandler, RouteShorthandOptions } from 'fastify';
import { API_KEY_SECURITY_SCHEME, type ApiScope } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { requireApiKey } from '../api-keys/guard.ts';

/** The tag of the program API's operations in the API document. */
export const PROGRAM_API_TAG = 'Program API';

/**
 * A program API route's options: the key and its scope checked before the body is read
 * (requireApiKey, decision 083), and the scope declared in the API document beside the bearer
 * scheme. `config.scopes` is what the route table test (routes-table.test.ts) reads.
 */
export function withScope<S extends FastifySchema>(db: Db, scope: ApiScope, schema: S) {
  return {
    onRequest: requireApiKey(db, scope),
    config: { scopes: [scope] },
    schema: { tags: [PROGRAM_API_TAG], security: [{ [API_KEY_SECURITY_SCHEME]: [scope] }], ...schema },
  } satisfies RouteShorthandOptions;
}

/**
 * The same for a route whose scope depends on what it acts on (an import's kind): `pick` names
 * one of `scopes` from the request, still before the body is read, and that scope's guard runs.
 * The document names each scope as an alternative.
 */
export function withScopeOf<S extends FastifySchema>(
  db: Db,
  scopes: readonly ApiScope[],
  pick: (request: FastifyRequest) => ApiScope | Promise<ApiScope>,
  schema: S,
) {
  const guards = new Map(scopes.map((scope) => [scope, requireApiKey(db, scope)]));
  const onRequest: onRequestAsyncHookHandler = async function pickedScope(request, reply) {
    const guard = guards.get(await pick(request));
    if (!guard) throw new Error('withScopeOf: pick named a scope not in the list');
    await guard.call(this, request, reply);
  };
  return {
    onRequest,
    config: { scopes },
    schema: { tags: [PROGRAM_API_TAG], security: scopes.map((scope) => ({ [API_KEY_SECURITY_SCHEME]: [scope] })), ...schema },
  } satisfies RouteShorthandOptions;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A program API route's scope (withScope), or the scopes one of which it needs (withScopeOf). */
    scopes?: readonly ApiScope[];
  }
}
