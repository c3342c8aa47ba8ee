import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EarningEvent, SimulationResult, programRulesPaths as paths } from '@rewards/contract/earning-rules';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { apiCallerOf } from '../api-keys/guard.ts';
import { withScope } from '../program-api/scopes.ts';
import { simulate } from './service.ts';

/**
 * The program API's earning-rules routes (issue 32 §2, docs/decisions/095), in the program API's
 * scope: `POST rules/simulate` for a key with `events:write` (the scope a shop's system posts its
 * events with), computing for the key's client only and writing nothing. HTTP only.
 */
export function programEarningRuleRoutes(api: FastifyInstance, deps: ModuleDeps): void {
  const { db } = deps;
  const typed = api.withTypeProvider<ZodTypeProvider>();

  typed.post(
    paths.simulate,
    withScope(db, 'events:write', {
      summary: 'What an event would earn, rule by rule, writing nothing',
      description:
        "The rules in force at occurredAt (default now), in the client's time zone; with a username, that participant's programs, status and what the capped rules gave them (404 if unknown), else a participant with no programs. Each line: the rule and version, every condition met or not, the calculation, the trims (cap, budget, best).",
      body: EarningEvent,
      response: { 200: SimulationResult },
    }),
    async (request) => simulate(db, apiCallerOf(request).clientId, request.body),
  );
}
