import type { AdjustmentRequest, DetailsRequest, ResendMailRequest } from '@rewards/contract/console-participants';
import { adjust, correctDetails, endSessions, launchAs, resendMail, setStatus, unlock } from '../../api/participants.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// The writes on one participant. Each makes stale the page, its statement, any search result
// showing the balance or status, and the audit trail that now has the action.

function useParticipantWrite<TData, TVariables>(clientId: string, id: string, write: (variables: TVariables) => Promise<TData>) {
  return useWrite(write, () => [queryKeys.participants.one(clientId, id), queryKeys.participants.search(), queryKeys.audit.all()]);
}

export const useLaunchAs = (clientId: string, id: string) =>
  useParticipantWrite(clientId, id, (reason: string) => launchAs(clientId, id, reason));
export const useAdjust = (clientId: string, id: string) =>
  useParticipantWrite(clientId, id, (body: AdjustmentRequest) => adjust(clientId, id, body));
export const useSetStatus = (clientId: string, id: string) =>
  useParticipantWrite(clientId, id, ({ status, reason }: { status: string; reason: string }) => setStatus(clientId, id, status, reason));
/** Unlocking the account, or ending its sessions: a reason is all either takes. */
export const useUnlockOrEndSessions = (clientId: string, id: string) =>
  useParticipantWrite(clientId, id, ({ kind, reason }: { kind: 'unlock' | 'endSessions'; reason: string }) =>
    (kind === 'unlock' ? unlock : endSessions)(clientId, id, reason),
  );
export const useResendMail = (clientId: string, id: string) =>
  useParticipantWrite(clientId, id, (body: ResendMailRequest) => resendMail(clientId, id, body));
export const useCorrectDetails = (clientId: string, id: string) =>
  useParticipantWrite(clientId, id, (body: DetailsRequest) => correctDetails(clientId, id, body));
