import {
  consoleEventTypesPaths as paths,
  type ConsoleEventTypeDeclareRequest,
  type ConsoleEventTypeList,
  type ConsoleEventTypeReply,
} from '@rewards/contract/console-event-types';
import { api } from '../../api/client.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// Programs → Earning rules → Event types (issue 32 §1, decision 100): every role of the client reads;
// program managers and owners declare and retire (with a reason).
export const getEventTypes = (clientId: string) => api<ConsoleEventTypeList>('GET', paths.types(clientId));
const declareEventType = (clientId: string, body: ConsoleEventTypeDeclareRequest) =>
  api<ConsoleEventTypeReply>('POST', paths.types(clientId), { body });
const retireEventType = (clientId: string, name: string, reason: string) =>
  api<ConsoleEventTypeReply>('POST', paths.retire(clientId, name), { body: { reason } });

const typesOf = (clientId: string) => () => [queryKeys.earningRules.eventTypes(clientId)];

export const useDeclareEventType = (clientId: string) =>
  useWrite((body: ConsoleEventTypeDeclareRequest) => declareEventType(clientId, body), typesOf(clientId));
export const useRetireEventType = (clientId: string, name: string) =>
  useWrite((body: { reason: string }) => retireEventType(clientId, name, body.reason), typesOf(clientId));
