import { useEffect, useState } from 'react';
import type { ExpiryScheduleReply } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import { useServices } from '../state/StoreContext.tsx';
import { RequestError, type ApiClient } from './client.ts';

/** GET user/points/expiring: what of the signed-in participant's balance expires when, soonest first (issue 19). */
export const getExpirySchedule = (api: ApiClient) => api.request<ExpiryScheduleReply>('GET', apiPaths.expirySchedule);

export type Expiry = ExpiryScheduleReply['expiries'][number];

export type ExpiryScheduleState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; expiries: Expiry[] };

/**
 * The schedule, shared by home (the line under the balance) and the history (the table). Loaded
 * again when `refresh` changes (the balance: a code redeemed or an order placed moves what
 * expires). A result is kept with the request it answers, so a stale one never shows as current.
 * One file, in the shape of the other hooks, so that moving it to TanStack Query is one change.
 */
export function useExpirySchedule(enabled: boolean, refresh: unknown): ExpiryScheduleState {
  const { api } = useServices();
  const request = `${String(enabled)}\n${String(refresh)}`;
  const [settled, setSettled] = useState<{ request: string; state: Exclude<ExpiryScheduleState, { status: 'loading' }> } | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    getExpirySchedule(api).then(
      ({ expiries }) => {
        if (current) setSettled({ request, state: { status: 'ready', expiries } });
      },
      (error: unknown) => {
        // A timed-out session reloads the page; nothing to show meanwhile.
        if (!current || (error instanceof RequestError && error.sessionTimeout)) return;
        setSettled({ request, state: { status: 'error' } });
      },
    );
    return () => {
      current = false;
    };
  }, [api, enabled, request]);

  return settled?.request === request ? settled.state : { status: 'loading' };
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
