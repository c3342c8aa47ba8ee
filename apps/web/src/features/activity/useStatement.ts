import { useCallback, useEffect, useState } from 'react';
import type { StatementReply } from '@rewards/contract';
import { RequestError } from '../../api/client.ts';
import { useServices } from '../../state/StoreContext.tsx';
import { getStatement } from './api.ts';

type StatementState = { status: 'loading' } | { status: 'error'; messageKey: string } | { status: 'ready'; statement: StatementReply };

type Settled = Exclude<StatementState, { status: 'loading' }>;

/**
 * Loads the statement, again when the language changes (the descriptions are translated).
 * A result is kept with the request it answers, so a stale one never shows as current.
 */
export function useStatement(username: string | undefined, locale: string): { state: StatementState; retry: () => void } {
  const { api } = useServices();
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<{ request: string; result: Settled } | null>(null);
  const request = `${username ?? ''}\n${locale}\n${attempt}`;

  useEffect(() => {
    if (!username) return;
    let current = true;
    getStatement(api, username, locale).then(
      (statement) => {
        if (current) setSettled({ request, result: { status: 'ready', statement } });
      },
      (error: unknown) => {
        // A timed-out session reloads the page; nothing to show meanwhile.
        if (!current || (error instanceof RequestError && error.sessionTimeout)) return;
        const messageKey = error instanceof RequestError ? error.responseMessage : 'error.generic';
        setSettled({ request, result: { status: 'error', messageKey } });
      },
    );
    return () => {
      current = false;
    };
  }, [api, username, locale, request]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: settled?.request === request ? settled.result : { status: 'loading' }, retry };
}
