import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { getClients } from './session.ts';
import { queryKeys } from './query-keys.ts';

// The clients the signed-in staff member sees: several pages (search, audit, staff, settings)
// share this one query, so it lives beside the client rather than in one of their features.

export function useClients() {
  return useQuery({ queryKey: queryKeys.clients(), queryFn: getClients, staleTime: 5 * 60_000 });
}

/** The client's name for an id (search results and the audit trail name clients by id). */
export function useClientName(): (clientId: string) => string {
  const clients = useClients();
  return (clientId) => clients.data?.find((c) => c.id === clientId)?.name ?? clientId;
}

/**
 * The client a page works on, named in the address (`?client=`, so a reload or a shared link keeps
 * it), else the first the person sees; undefined while loading or for a client they do not see.
 */
export function useChosenClient() {
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  const clientId = params.get('client') ?? clients.data?.[0]?.id ?? '';
  return { clients, client: clients.data?.find((c) => c.id === clientId), params, setParams };
}
