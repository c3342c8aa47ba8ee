import { useMutation, useQueryClient } from '@tanstack/react-query';
import { confirmEnrolmentPasskey, confirmEnrolmentTotp, setEnrolmentPassword } from '../../api/session.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// Enrolment's steps, each sent with the link's token.

export const useSetEnrolmentPassword = (token: string) => useWrite((password: string) => setEnrolmentPassword(token, password));

export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'passkey' };
/** The last step signs the person in: who they are is cached, for the console they continue to. */
export function useConfirmEnrolment(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (factor: SecondFactor) =>
      factor.kind === 'totp' ? confirmEnrolmentTotp(token, factor.code) : confirmEnrolmentPasskey(token),
    onSuccess: (reply) => queryClient.setQueryData(queryKeys.me(), reply.me),
  });
}
