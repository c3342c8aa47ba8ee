import {
  consoleCodesPaths as paths,
  type BatchDetail,
  type BatchList,
  type GenerateBatchRequest,
  type VoidCodesReply,
  type VoidCodesRequest,
} from '@rewards/contract/console-codes';
import { api } from './client.ts';

// A client's code batches (issue 20 §1, decision 063): every role reads, program managers and owners generate and void.
export const getBatches = (clientId: string) => api<BatchList>('GET', paths.batches(clientId));
export const getBatch = (clientId: string, batch: string, hint?: string) =>
  api<BatchDetail>('GET', paths.batch(clientId, batch), { query: { hint } });
/** The new batch's codes as CSV: the only copy there will ever be. */
export const generateBatch = (clientId: string, body: GenerateBatchRequest) =>
  api<string>('POST', paths.batches(clientId), { body, text: true });
export const voidCodes = (clientId: string, batch: string, body: VoidCodesRequest) =>
  api<VoidCodesReply>('POST', paths.voidCodes(clientId, batch), { body });
