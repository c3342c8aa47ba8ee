import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getEvents, getParticipant, getStatement, searchParticipants } from '../../api/participants.ts';
import { queryKeys } from '../../api/query-keys.ts';

// The participant's server data, under keys the actions (mutations.ts) make stale together.

export function useSearch(q: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.participants.searchFor(q),
    queryFn: ({ pageParam }) => searchParticipants(q, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: q.trim().length >= 2,
  });
}

export function useParticipant(clientId: string, id: string) {
  return useQuery({ queryKey: queryKeys.participants.one(clientId, id), queryFn: () => getParticipant(clientId, id) });
}

export function useStatement(clientId: string, id: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.participants.statement(clientId, id),
    queryFn: ({ pageParam }) => getStatement(clientId, id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useEvents(clientId: string, id: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.participants.events(clientId, id),
    queryFn: ({ pageParam }) => getEvents(clientId, id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}
