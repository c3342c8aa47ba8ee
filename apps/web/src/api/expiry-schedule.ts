import type { ExpiryScheduleReply } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import { useServices } from '../state/StoreContext.tsx';
import type { ApiClient } from './client.ts';
import { useApiQuery } from './queries.ts';
import { queryKeys } from './query-keys.ts';

/** GET user/points/expiring: what of the signed-in participant's balance expires when, soonest first (issue 19). */
export const getExpirySchedule = (api: ApiClient) => api.request<ExpiryScheduleReply>('GET', apiPaths.expirySchedule);

export type Expiry = ExpiryScheduleReply['expiries'][number];

export type ExpiryScheduleState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; expiries: Expiry[] };

/**
 * The schedule, shared by home (the line under the balance) and the history (the list), through
 * TanStack Query (decision 059). Asked again when `refresh` changes (the balance: a code redeemed
 * or an order placed moves what expires); the key keeps an answer with the request it answers.
 */
export function useExpirySchedule(enabled: boolean, refresh: unknown): ExpiryScheduleState {
  const { api } = useServices();
  const { answer } = useApiQuery({ queryKey: queryKeys.expirySchedule.at(refresh), queryFn: () => getExpirySchedule(api), enabled });
  if (answer.status === 'ready') return { status: 'ready', expiries: answer.data.expiries };
  return answer.status === 'failed' ? { status: 'error' } : answer;
}

/** A calendar day (YYYY-MM-DD) as a Date at its UTC midnight: formatted with timeZone UTC, it never shifts a day. */
export function calendarDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** The browser's today plus `days`, as YYYY-MM-DD. */
export function localDayFromToday(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
