import {
  consoleClientPaths as paths,
  type ExpirySettings,
  type ExpirySettingsReply,
  type ExpirySettingsRequest,
} from '@rewards/contract/console-clients';
import { api } from './client.ts';

// A client's points-expiry settings (issue 19, decision 062): every role reads, program managers and owners change.
export const getExpirySettings = (clientId: string) => api<ExpirySettings>('GET', paths.expirySettings(clientId));
export const putExpirySettings = (clientId: string, body: ExpirySettingsRequest) =>
  api<ExpirySettingsReply>('PUT', paths.expirySettings(clientId), { body });
