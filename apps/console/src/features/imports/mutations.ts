import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportJob, ImportKind } from '@rewards/contract/console-imports';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { confirmImport, discardImport, uploadImport } from './imports-api.ts';

// A client's imports: each write changes a job and the history that lists it.

export interface Upload {
  kind: ImportKind;
  file: File;
  onProgress: (sent: number, total: number) => void;
}

/** The answer is the job as it is (previewing): cached at once, so the page shows it before its first poll. */
export function useUploadImport(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file, onProgress }: Upload) => uploadImport(clientId, kind, file, onProgress),
    onSuccess: (job: ImportJob) => {
      queryClient.setQueryData(queryKeys.imports.job(clientId, job.id), job);
      return queryClient.invalidateQueries({ queryKey: queryKeys.imports.ofClient(clientId) });
    },
  });
}

export const useConfirmImport = (clientId: string, jobId: string) =>
  useWrite(
    (reason: string) => confirmImport(clientId, jobId, { reason }),
    () => [queryKeys.imports.job(clientId, jobId), queryKeys.imports.ofClient(clientId)],
  );

/** A discarded job is left (the page goes back to the upload form): dropped from the cache rather than read again. */
export function useDiscardImport(clientId: string, jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // An empty reason is sent as none.
    mutationFn: (reason: string) => discardImport(clientId, jobId, reason ? { reason } : {}),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.imports.ofClient(clientId) });
      queryClient.removeQueries({ queryKey: queryKeys.imports.job(clientId, jobId) });
    },
  });
}
