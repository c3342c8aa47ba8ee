import { useCallback, useMemo } from 'react';
import { QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import { queryDefaults } from '@rewards/contract/query-defaults';
import { useAppState, useServices, type AppServices } from '../state/StoreContext.tsx';
import { RequestError } from './client.ts';

/**
 * Server data that pages read (the statement, the expiry schedule, content texts, the rules) goes
 * through TanStack Query, as in the console (decision 059), and so do the writes of the pages that
 * load it (decision 090). The user, the client data and the bundles stay in the store, and so do
 * the writes of the first screens (sign-in, sign-out, the language, the cookie notice): start-up
 * and sign-in own them, and /login does not load the library.
 *
 * No provider at the app's root: this module, and the library with it, comes with the first page
 * that reads server data, so the first screen's script stays within its budget. Each app instance
 * (each `AppServices`) gets its own client, made on first use.
 */
export function createQueryClient(): QueryClient {
  // Every visit asks again (staleTime 0, the library's default), showing the last answer meanwhile.
  return new QueryClient({
    defaultOptions: {
      queries: queryDefaults((error) => (error instanceof RequestError ? error.status : undefined)),
      // A write is sent at once, as the store's writes are, and fails visibly when offline
      // rather than waiting unseen for the browser's online event. Never retried (the default).
      mutations: { networkMode: 'always' },
    },
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

export interface ApiMutation<TVariables, TData> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  /**
   * The reads this write makes stale, keys from query-keys.ts (the session is put in front): a
   * read on screen is asked again once the write succeeded, one not on screen at its next visit.
   */
  invalidates?: ReadonlyArray<readonly unknown[]>;
  /** Runs even if the page is gone by then (the store's messages outlive it). */
  onSuccess?: (data: TData, variables: TVariables) => void;
  /** A failure other than a timed-out session's 401, which is reloading the page. */
  onError?: (error: unknown, variables: TVariables) => void;
}

/**
 * One server write of a page: `mutate` sends it, `isPending` is its busy state, and what it makes
 * stale is declared with it. Messages go to the store as before (spec section 8), so a page
 * shows them the way it always did.
 */
export function useApiMutation<TVariables = void, TData = unknown>({
  mutationFn,
  invalidates = [],
  onSuccess,
  onError,
}: ApiMutation<TVariables, TData>) {
  const services = useServices();
  const client = queryClientOf(services);
  return useMutation<TData, unknown, TVariables>(
    {
      mutationFn,
      onSuccess: (data, variables) => {
        onSuccess?.(data, variables);
        // The session of the moment: a write that signs in (activation) stales the new session's reads.
        const session = services.store.getState().user?.sessionId ?? null;
        for (const key of invalidates) void client.invalidateQueries({ queryKey: [session, ...key] });
      },
      onError: (error, variables) => {
        if (!isSessionTimeout(error)) onError?.(error, variables);
      },
    },
    client,
  );
}
