import type { OtsRedeemReply, OtsRedeemRequest } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/** POST ots/redeem (spec section 7). */
export const redeemOtsCode = (api: ApiClient, body: OtsRedeemRequest) => api.request<OtsRedeemReply>('POST', apiPaths.otsRedeem, { body });
