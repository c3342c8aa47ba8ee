import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { StaffMe, StaffRole } from '@rewards/contract/console';
import { ConsoleApiError, setApiHooks } from '../api/client.ts';
import { getMe, signOut } from '../api/session.ts';
import { queryKeys } from '../api/query-keys.ts';

/** The server's idle limit for a console session (decision 046): the app signs out at the same moment. */
export const IDLE_MINUTES = 15;

/** Why the sign-in page is shown again: its message. */
export type SignedOutReason = 'idle' | 'ended' | 'signedOut';

interface SessionValue {
  me: StaffMe;
  /** Whether the person is an owner, or holds one of the roles in some client. */
  hasRole: (...roles: StaffRole[]) => boolean;
  end: (reason: SignedOutReason) => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in screen');
  return value;
}

/** GET me once per visit: null when nobody is signed in (401). */
export function useMe() {
  return useQuery({
    queryKey: queryKeys.me(),
    queryFn: async () => {
      try {
        return await getMe();
      } catch (error) {
        if (error instanceof ConsoleApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/**
 * The signed-in part of the app: the person, the idle clock and the ended-session path. The idle
 * clock counts from the last answered API call, as the server's does, and at 15 minutes signs out
 * and shows the sign-in page with a message; any 401 on the way does the same.
 */
export function SessionProvider({ me, children }: { me: StaffMe; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ending = useRef(false);
  const [lastActivity, setLastActivity] = useState(() => Date.now());

  const end = useCallback(
    async (reason: SignedOutReason) => {
      if (ending.current) return;
      ending.current = true;
      if (reason !== 'ended') await signOut().catch(() => undefined);
      queryClient.clear();
      queryClient.setQueryData(queryKeys.me(), null);
      navigate('/sign-in', { replace: true, state: { reason } });
    },
    [navigate, queryClient],
  );

  useEffect(() => {
    let last = 0;
    setApiHooks({
      sessionEnded: () => void end('ended'),
      // At most one state change a second, however many calls answer.
      activity: () => {
        const now = Date.now();
        if (now - last > 1000) {
          last = now;
          setLastActivity(now);
        }
      },
    });
    return () => setApiHooks({ sessionEnded: null, activity: null });
  }, [end]);

  useEffect(() => {
    const left = lastActivity + IDLE_MINUTES * 60_000 - Date.now();
    const timer = setTimeout(() => void end('idle'), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [lastActivity, end]);

  const value = useMemo<SessionValue>(
    () => ({
      me,
      hasRole: (...roles) => me.owner || me.roles.some((grant) => roles.includes(grant.role)),
      end,
    }),
    [me, end],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
