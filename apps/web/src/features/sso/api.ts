import type { UserData } from '@rewards/contract';
import { API_BASE, apiPaths } from '@rewards/contract/paths';
import { ssoPaths } from '@rewards/contract/sso';
import type { ApiClient } from '../../api/client.ts';

/**
 * GET user with the one-time id of /sso-authenticated: the server swaps it for a fresh session,
 * whose id the reply's sessionId carries. A 401 here is a spent or stale id, not a timeout.
 */
export const exchangeSsoSession = (api: ApiClient, oneTimeId: string) =>
  api.request<UserData>('GET', apiPaths.user, { sessionId: oneTimeId, ignoreSessionTimeout: true });

/** A browser navigation to the server (no fetch: the provider's pages take over the window). */
export const ssoLogoutUrl = `${API_BASE}${ssoPaths.logout}`;
