import type { StatementReply } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/** GET user/account/statement: the signed-in participant's history, described in `locale`. */
export const getStatement = (api: ApiClient, username: string, locale: string) =>
  api.request<StatementReply>('GET', apiPaths.statement(username, locale));
