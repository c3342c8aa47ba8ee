import { useQuery } from '@tanstack/react-query';
import { getClients } from './session.ts';

// The clients the signed-in staff member sees: several pages (search, audit, staff, settings)
// share this one query, so it lives beside the client rather than in one of their features.

export function useClients() {
  return useQuery({ queryKey: ['clients'], queryFn: getClients, staleTime: 5 * 60_000 });
}

/** The client's name for an id (search results and the audit trail name clients by id). */
export function useClientName(): (clientId: string) => string {
  const clients = useClients();
  return (clientId) => clients.data?.find((c) => c.id === clientId)?.name ?? clientId;
}
