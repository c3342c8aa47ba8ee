import type { ConsoleEarningRuleChangeRequest } from '@rewards/contract/console-earning-rules';
import type { EarningEvent } from '@rewards/contract/earning-rules';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { createRule, setRuleState, simulateEvent, updateRule } from './api.ts';

// A change to a rule has the client's rules read again (the list and, under it, the rule's page: prefix matching).
const rulesOf = (clientId: string) => () => [queryKeys.earningRules.ofClient(clientId)];

export const useCreateRule = (clientId: string) =>
  useWrite((body: ConsoleEarningRuleChangeRequest) => createRule(clientId, body), rulesOf(clientId));
export const useUpdateRule = (clientId: string, ruleId: string) =>
  useWrite((body: ConsoleEarningRuleChangeRequest) => updateRule(clientId, ruleId, body), rulesOf(clientId));
export const useSetRuleState = (clientId: string, ruleId: string) =>
  useWrite((body: { enabled: boolean; reason: string }) => setRuleState(clientId, ruleId, body), rulesOf(clientId));
/** "Try it" is a POST that writes nothing: nothing becomes stale. */
export const useSimulate = (clientId: string) => useWrite((event: EarningEvent) => simulateEvent(clientId, event));
