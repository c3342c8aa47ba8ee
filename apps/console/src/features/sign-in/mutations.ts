import { useMutation, useQueryClient } from '@tanstack/react-query';
import { signIn, signInPasskey, signInRecoveryCode, signInTotp } from '../../api/session.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// Sign-in's two steps: the password (its answer names the second factors the account has), then one of them.

export const useSignInPassword = () => useWrite(({ email, password }: { email: string; password: string }) => signIn(email, password));

export type SignInFactor = { kind: 'totp' | 'recoveryCode'; code: string } | { kind: 'passkey' };
/** Signed in: who the person is is cached, so the console opens at once. */
export function useSignInFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (factor: SignInFactor) =>
      factor.kind === 'passkey' ? signInPasskey() : factor.kind === 'totp' ? signInTotp(factor.code) : signInRecoveryCode(factor.code),
    onSuccess: (person) => queryClient.setQueryData(queryKeys.me(), person),
  });
}
