import { useCallback, useMemo } from 'react';
import { QueryClient, useQuery } from '@tanstack/react-query';
import { queryDefaults } from '@rewards/contract/query-defaults';
import { useAppState, useServices, type AppServices } from '../state/StoreContext.tsx';
import { RequestError } from './client.ts';

/**
 * Server data that pages read (the statement, content texts, the rules) goes through TanStack
 * Query, as in the console (decision 059). The user, the client data and the bundles stay in the
 * store: start-up and sign-in own them.
 *
 * No provider at the app's root: this module, and the library with it, comes with the first page
 * that reads server data, so the first screen's script stays within its budget. Each app instance
 * (each `AppServices`) gets its own client, made on first use.
 */
export function createQueryClient(): QueryClient {
  // Every visit asks again (staleTime 0, the library's default), showing the last answer meanwhile.
  return new QueryClient({
    defaultOptions: { queries: queryDefaults((error) => (error instanceof RequestError ? error.status : undefined)) },
  });
}

const clients = new WeakMap<AppServices, QueryClient>();

function queryClientOf(services: AppServices): QueryClient {
  let client = clients.get(services);
  if (!client) {
    client = createQueryClient();
    // What QueryClientProvider would do: follow the browser's online and focus events. Never
    // unmounted: the client lives as long as the app.
    client.mount();
    clients.set(services, client);
  }
  return client;
}

/** What a page shows for a query: loading (also while trying again), the answer, or the failure. */
export type Answer<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; error: unknown };

const loading = { status: 'loading' } as const;

/** A 401 on the session started the timeout path and the page is reloading: nothing to show meanwhile. */
export const isSessionTimeout = (error: unknown) => error instanceof RequestError && error.sessionTimeout;

export interface ApiQuery<T> {
  /** What the answer depends on besides the session (which every key gets: a sign-out does not reload the page). */
  queryKey: readonly unknown[];
  queryFn: () => Promise<T>;
  enabled?: boolean;
}

/**
 * One server read: its answer, kept per session and key, and a way to ask again. The answer is
 * the same object until the query changes, so a page may derive from it in `useMemo`.
 */
export function useApiQuery<T>({ queryKey, queryFn, enabled = true }: ApiQuery<T>): { answer: Answer<T>; retry: () => void } {
  const services = useServices();
  const session = useAppState((s) => s.user?.sessionId ?? null);
  const { data, error, status, fetchStatus, refetch } = useQuery(
    { queryKey: [session, ...queryKey], queryFn, enabled },
    queryClientOf(services),
  );
  const answer = useMemo((): Answer<T> => {
    if (status === 'success') return { status: 'ready', data };
    if (status === 'error' && fetchStatus === 'idle' && !isSessionTimeout(error)) return { status: 'failed', error };
    return loading;
  }, [data, error, status, fetchStatus]);
  const retry = useCallback(() => void refetch(), [refetch]);
  return { answer, retry };
}
