import { useMemo } from 'react';
import type { StatementReply } from '@rewards/contract';
import { useApiQuery } from '../../api/queries.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { RequestError } from '../../api/client.ts';
import { useServices } from '../../state/StoreContext.tsx';
import { getStatement } from './api.ts';

type StatementState = { status: 'loading' } | { status: 'error'; messageKey: string } | { status: 'ready'; statement: StatementReply };

/**
 * The statement, asked for again when the language changes (the descriptions are translated):
 * the locale is part of the query's key, so an answer in another language never shows as current.
 */
export function useStatement(username: string | undefined, locale: string): { state: StatementState; retry: () => void } {
  const { api } = useServices();
  const { answer, retry } = useApiQuery({
    queryKey: queryKeys.statement.of(username, locale),
    queryFn: () => getStatement(api, username ?? '', locale),
    enabled: Boolean(username),
  });
  const state = useMemo((): StatementState => {
    if (answer.status === 'ready') return { status: 'ready', statement: answer.data };
    if (answer.status === 'failed') {
      return { status: 'error', messageKey: answer.error instanceof RequestError ? answer.error.responseMessage : 'error.generic' };
    }
    return answer;
  }, [answer]);
  return { state, retry };
}
