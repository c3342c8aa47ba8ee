import type { UserData } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/**
 * "Stay signed in": any guarded call slides the idle expiry; GET user also refreshes the balance.
 * A 401 here takes the API client's timeout path like any other call.
 */
export const keepSessionAlive = (api: ApiClient) => api.request<UserData>('GET', apiPaths.user);
