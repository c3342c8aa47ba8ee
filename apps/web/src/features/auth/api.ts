import type {
  AcceptedReply,
  ForgotPasswordRequest,
  ForgotUsernameRequest,
  SavePasswordReply,
  SavePasswordRequest,
} from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

// The anonymous account calls of issue 7 (activation goes through state/session.ts: it signs in).
// None of them carries a session.

/** The same reply whether or not the address is known. */
export const forgotUsername = (api: ApiClient, body: ForgotUsernameRequest) =>
  api.request<AcceptedReply>('POST', apiPaths.forgotUsername, { body, sessionId: null });

/** The same reply whether or not the address and user id match. */
export const forgotPassword = (api: ApiClient, body: ForgotPasswordRequest) =>
  api.request<AcceptedReply>('POST', apiPaths.forgotPassword, { body, sessionId: null });

export const savePassword = (api: ApiClient, body: SavePasswordRequest) =>
  api.request<SavePasswordReply>('POST', apiPaths.savePassword, { body, sessionId: null });
