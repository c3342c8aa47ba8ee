import {
  consoleEarningRulesPaths as paths,
  type ConsoleEarningRuleChangeReply,
  type ConsoleEarningRuleChangeRequest,
  type ConsoleEarningRuleDetail,
  type ConsoleEarningRuleList,
  type ConsoleEarningRuleStateRequest,
} from '@rewards/contract/console-earning-rules';
import type { EarningEvent, SimulationResult } from '@rewards/contract/earning-rules';
import { api } from '../../api/client.ts';

// Programs → Earning rules (issue 32 §2, decision 096): every role of the client reads and tries an event;
// program managers and owners change, with a reason.
export const getRules = (clientId: string) => api<ConsoleEarningRuleList>('GET', paths.rules(clientId));
export const getRule = (clientId: string, ruleId: string) => api<ConsoleEarningRuleDetail>('GET', paths.rule(clientId, ruleId));
export const createRule = (clientId: string, body: ConsoleEarningRuleChangeRequest) =>
  api<ConsoleEarningRuleChangeReply>('POST', paths.rules(clientId), { body });
export const updateRule = (clientId: string, ruleId: string, body: ConsoleEarningRuleChangeRequest) =>
  api<ConsoleEarningRuleChangeReply>('PUT', paths.rule(clientId, ruleId), { body });
export const setRuleState = (clientId: string, ruleId: string, body: ConsoleEarningRuleStateRequest) =>
  api<ConsoleEarningRuleChangeReply>('POST', paths.state(clientId, ruleId), { body });
/** Writes nothing: what the event would earn under the rules in force at its time. */
export const simulateEvent = (clientId: string, event: EarningEvent) =>
  api<SimulationResult>('POST', paths.simulate(clientId), { body: event });
