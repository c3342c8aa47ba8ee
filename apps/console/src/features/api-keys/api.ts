import {
  consoleApiKeysPaths as paths,
  type ApiKeyList,
  type ApiKeyView,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '@rewards/contract/console-api-keys';
import { api } from '../../api/client.ts';

// A client's API keys (issue 29 §1, decision 083): owners, program managers and auditors read;
// owners and program managers make (the API client asks for a fresh second factor) and revoke.
export const getApiKeys = (clientId: string) => api<ApiKeyList>('GET', paths.keys(clientId));
/** The reply holds the key: the only copy there will ever be. */
export const createApiKey = (clientId: string, body: CreateApiKeyRequest) => api<CreatedApiKey>('POST', paths.keys(clientId), { body });
export const revokeApiKey = (clientId: string, keyId: string, reason: string) =>
  api<ApiKeyView>('POST', paths.revoke(clientId, keyId), { body: { reason } });
