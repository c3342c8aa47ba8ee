import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A console write as a TanStack mutation, with the reads it makes stale declared once next to it:
 * after a success those keys are invalidated, and the mutation stays pending until the ones on
 * screen are read again, so a dialog closes onto fresh data. A refusal that asks for a fresh
 * second factor never reaches here: `api()` opens the step-up dialog and sends the write again.
 */
export function useWrite<TData, TVariables>(
  write: (variables: TVariables) => Promise<TData>,
  stale: (data: TData, variables: TVariables) => readonly QueryKey[] = () => [],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (data, variables) => Promise.all(stale(data, variables).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
