import type { ProgramNamesReply } from '@rewards/contract/user';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/** `GET user/program-names`: the programs whose rules the participant may read. */
export const getProgramNames = (api: ApiClient) => api.request<ProgramNamesReply>('GET', apiPaths.programNames);
