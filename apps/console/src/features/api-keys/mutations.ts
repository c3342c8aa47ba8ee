import type { CreateApiKeyRequest } from '@rewards/contract/console-api-keys';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { createApiKey, revokeApiKey } from './api.ts';

// A client's API keys: making or revoking one has the list read again.

export const useCreateApiKey = (clientId: string) =>
  useWrite(
    (body: CreateApiKeyRequest) => createApiKey(clientId, body),
    () => [queryKeys.apiKeys(clientId)],
  );
export const useRevokeApiKey = (clientId: string) =>
  useWrite(
    ({ keyId, reason }: { keyId: string; reason: string }) => revokeApiKey(clientId, keyId, reason),
    () => [queryKeys.apiKeys(clientId)],
  );
