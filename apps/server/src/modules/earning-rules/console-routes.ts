import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ConsoleEarningRuleChangeReply,
  ConsoleEarningRuleChangeRequest,
  ConsoleEarningRuleDetail,
  ConsoleEarningRuleList,
  ConsoleEarningRuleParams,
  ConsoleEarningRulesParams,
  ConsoleEarningRuleStateRequest,
  consoleEarningRulesPaths as paths,
} from '@rewards/contract/console-earning-rules';
import { EarningEvent, SimulationResult } from '@rewards/contract/earning-rules';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { findClient } from '../clients/service.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import type { Documented } from '../staff/routes.ts';
import { createRule, getRule, listRules, ruleHistory, setRuleEnabled, simulate, updateRule, type RuleEditor } from './service.ts';

/** Who changes a client's rules: its program managers (and owners, who pass every role check); decision 095. */
const CHANGING: readonly StaffRole[] = ['program_manager'];
const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * Programs → Earning rules (issue 32 §2, docs/decisions/095 and 096), inside the console plugin of
 * modules/staff/routes.ts, on the service `rewards rules` calls. Every role of the client reads
 * the rules and their versions and tries an event (a simulation writes nothing); program managers
 * and owners create, change, enable and disable, each with a reason (the service checks the role
 * again and audits). HTTP only.
 */
export function consoleEarningRuleRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const reading = requireRole(db, site, clientIdOf, STAFF_ROLES);
  const changing = requireRole(db, site, clientIdOf, CHANGING);
  const editorOf = (request: FastifyRequest): RuleEditor => {
    const { staff } = staffOf(request);
    return { kind: 'staff', name: staff.email, origin: request.ip, staffId: staff.id, owner: staff.owner === 1 };
  };
  /** An owner passes the role check for any id: a client that does not exist is 404. */
  const existing = async (clientId: string) => {
    if (!(await findClient(db, clientId))) throw errors.notFound();
    return clientId;
  };

  typed.get(
    pattern(paths.rules(':clientId')),
    {
      onRequest: reading,
      schema: {
        summary: "The client's earning rules: each one's latest version, the version in force now, and what is left of its budget",
        params: ConsoleEarningRulesParams,
        response: { 200: ConsoleEarningRuleList },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => ({ rules: await listRules(db, await existing(request.params.clientId)) }),
  );

  typed.post(
    pattern(paths.rules(':clientId')),
    {
      onRequest: changing,
      schema: {
        summary:
          'Add an earning rule (version 1) from its JSON, with a reason; audited. Every problem of the rule is answered with where it is',
        params: ConsoleEarningRulesParams,
        body: ConsoleEarningRuleChangeRequest,
        response: { 201: ConsoleEarningRuleChangeReply },
        ...documented({ roles: CHANGING }),
      },
    },
    async (request, reply) => {
      const { rule, reason, effectiveFrom } = request.body;
      const change = await createRule(db, editorOf(request), request.params.clientId, rule, reason, { effectiveFrom });
      reply.status(201);
      return { rule: change.rule, unchanged: change.unchanged };
    },
  );

  typed.get(
    pattern(paths.rule(':clientId', ':ruleId')),
    {
      onRequest: reading,
      schema: {
        summary: 'One earning rule and every version of it, oldest first, with who changed what, when and why',
        params: ConsoleEarningRuleParams,
        response: { 200: ConsoleEarningRuleDetail },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => {
      const { clientId, ruleId } = request.params;
      await existing(clientId);
      const [rule, versions] = await Promise.all([getRule(db, clientId, ruleId), ruleHistory(db, clientId, ruleId)]);
      return { rule, versions };
    },
  );

  typed.put(
    pattern(paths.rule(':clientId', ':ruleId')),
    {
      onRequest: changing,
      schema: {
        summary:
          'A new version of the rule from its JSON (its event type stays), in force from now or a later effectiveFrom, with a reason; audited. Earlier events keep what they earned',
        params: ConsoleEarningRuleParams,
        body: ConsoleEarningRuleChangeRequest,
        response: { 200: ConsoleEarningRuleChangeReply },
        ...documented({ roles: CHANGING }),
      },
    },
    async (request) => {
      const { clientId, ruleId } = request.params;
      const { rule, reason, effectiveFrom } = request.body;
      const change = await updateRule(db, editorOf(request), clientId, ruleId, rule, reason, { effectiveFrom });
      return { rule: change.rule, unchanged: change.unchanged };
    },
  );

  typed.post(
    pattern(paths.state(':clientId', ':ruleId')),
    {
      onRequest: changing,
      schema: {
        summary: 'Enable or disable the rule from now (or a later effectiveFrom), a version of its own, with a reason; audited',
        params: ConsoleEarningRuleParams,
        body: ConsoleEarningRuleStateRequest,
        response: { 200: ConsoleEarningRuleChangeReply },
        ...documented({ roles: CHANGING }),
      },
    },
    async (request) => {
      const { clientId, ruleId } = request.params;
      const { enabled, reason, effectiveFrom } = request.body;
      const change = await setRuleEnabled(db, editorOf(request), clientId, ruleId, enabled, reason, { effectiveFrom });
      return { rule: change.rule, unchanged: change.unchanged };
    },
  );

  typed.post(
    pattern(paths.simulate(':clientId')),
    {
      onRequest: reading,
      schema: {
        summary: 'Try it: what an event would earn under the rules in force at its occurredAt, rule by rule and why, writing nothing',
        params: ConsoleEarningRulesParams,
        body: EarningEvent,
        response: { 200: SimulationResult },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => simulate(db, await existing(request.params.clientId), request.body),
  );
}
