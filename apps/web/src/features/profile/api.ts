import type { ChangePasswordReply, ChangePasswordRequest } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/** PUT user/password (spec section 7). */
export const changePassword = (api: ApiClient, body: ChangePasswordRequest) =>
  api.request<ChangePasswordReply>('PUT', apiPaths.userPassword, { body });
