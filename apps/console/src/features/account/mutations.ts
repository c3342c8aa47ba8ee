import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffAccount, StaffTotpSecretReply } from '@rewards/contract/console';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { addPasskey, changePassword, confirmTotp, newTotpSecret, removePasskey, renewRecoveryCodes } from './account-api.ts';

// Your account's writes. A reply that is the account is cached at once; the second factors' changes
// have the account read again whatever their outcome (a refusal may follow a change made elsewhere).

export const useChangePassword = () => useWrite(({ current, next }: { current: string; next: string }) => changePassword(current, next));

export type FactorChange =
  { kind: 'newTotpSecret' } | { kind: 'addPasskey' } | { kind: 'removePasskey'; passkeyId: string } | { kind: 'renewCodes' };
/** What a change answers: the account as it now is, a secret to confirm, or new recovery codes (shown once). */
export interface FactorResult {
  account?: StaffAccount;
  totpSecret?: StaffTotpSecretReply;
  recoveryCodes?: string[];
}

async function change(what: FactorChange): Promise<FactorResult> {
  switch (what.kind) {
    case 'newTotpSecret':
      return { totpSecret: await newTotpSecret() };
    case 'addPasskey':
      return { account: await addPasskey() };
    case 'removePasskey':
      return { account: await removePasskey(what.passkeyId) };
    case 'renewCodes':
      return { recoveryCodes: (await renewRecoveryCodes()).recoveryCodes };
  }
}

/** The second factors' changes, one mutation: the section's buttons wait for the one under way and show its refusal. */
export function useFactorChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: ({ account }) => {
      if (account) queryClient.setQueryData(queryKeys.account(), account);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account() }),
  });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sealed, code }: { sealed: string; code: string }) => confirmTotp(sealed, code),
    onSuccess: (account) => queryClient.setQueryData(queryKeys.account(), account),
  });
}
