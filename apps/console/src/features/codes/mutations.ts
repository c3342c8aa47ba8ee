import type { GenerateBatchRequest, VoidCodesRequest } from '@rewards/contract/console-codes';
import { generateBatch, voidCodes } from '../../api/codes.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// A client's code batches: a new batch has the list counted again; a void, the batch and the list.

/** Resolves to the batch's codes as CSV, the only copy. */
export const useGenerateBatch = (clientId: string) =>
  useWrite(
    (body: GenerateBatchRequest) => generateBatch(clientId, body),
    () => [queryKeys.codes.batches(clientId)],
  );
export const useVoidCodes = (clientId: string, batch: string) =>
  useWrite(
    (body: VoidCodesRequest) => voidCodes(clientId, batch, body),
    () => [queryKeys.codes.batch(clientId, batch), queryKeys.codes.batches(clientId)],
  );
