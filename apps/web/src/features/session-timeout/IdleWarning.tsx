import { useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { RequestError } from '../../api/client.ts';
import * as endpoints from '../../api/endpoints.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { logout, updateUser } from '../../state/session.ts';
import { Button } from '../../ui/Button.tsx';
import { getSessionActivity, type SessionActivity } from './activity.ts';
import { keepSessionAlive } from './api.ts';
import { countdownParts, idleSchedule } from './timing.ts';
import './idle-warning.css';

interface IdleWarningProps {
  /** The spec's session-timeout path (the same one the API client takes on a 401). */
  onTimedOut: () => void;
  /** The activity tracker; the tab's own unless a test brings one. */
  activity?: SessionActivity;
}

/**
 * Watches the signed-in session: two minutes before the idle timeout a dialog offers to stay
 * signed in; ignored, the session ends and the spec's timeout path takes over.
 */
export function IdleWarning({ onTimedOut, activity }: IdleWarningProps) {
  const sessionId = useAppState((s) => s.user?.sessionId ?? null);
  const idleMinutes = useAppState((s) => s.client?.sessionIdleMinutes ?? null);
  if (!sessionId || !idleMinutes) return null;
  // A new session starts a new watch.
  return (
    <IdleWatch
      key={sessionId}
      sessionId={sessionId}
      idleMinutes={idleMinutes}
      onTimedOut={onTimedOut}
      activity={activity ?? getSessionActivity()}
    />
  );
}

interface WatchProps {
  sessionId: string;
  idleMinutes: number;
  onTimedOut: () => void;
  activity: SessionActivity;
}

function IdleWatch({ sessionId, idleMinutes, onTimedOut, activity }: WatchProps) {
  const services = useServices();
  // A fresh sign-in has made no guarded call yet: the session counts from when it was first seen.
  const [seenAt] = useState(() => Date.now());
  const last = useSyncExternalStore(activity.subscribe, () => activity.lastFor(sessionId));
  const { warnAt, endAt } = idleSchedule(Math.max(seenAt, last ?? 0), idleMinutes);
  const [now, setNow] = useState(() => Date.now());
  const ended = useRef(false);

  const phase = now >= endAt ? 'ended' : warnAt !== null && now >= warnAt ? 'warning' : 'watching';

  // One timer to the next moment that matters: the warning, each second of the countdown, the end.
  useEffect(() => {
    if (phase === 'ended') return;
    const current = Date.now();
    // In the countdown: the next moment the shown second changes (endAt - k seconds).
    const next = phase === 'warning' ? endAt - (Math.ceil((endAt - current) / 1000) - 1) * 1000 : (warnAt ?? endAt);
    const timer = window.setTimeout(() => setNow(Date.now()), Math.max(0, next - current));
    return () => window.clearTimeout(timer);
  }, [phase, now, warnAt, endAt]);

  // A tab put to sleep wakes with late timers: look at the clock again when it shows.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') setNow(Date.now());
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  useEffect(() => {
    if (phase !== 'ended' || ended.current) return;
    ended.current = true;
    // End it on the server too, so "timed out" is true everywhere; then the spec's path.
    void endpoints
      .logout(services.api)
      .catch(() => undefined)
      .then(() => onTimedOut());
  }, [phase, services.api, onTimedOut]);

  if (phase === 'watching') return null;
  return <WarningDialog msLeft={endAt - now} />;
}

const FOCUSABLE = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** The warning: an alert dialog with a countdown that is shown every second but announced rarely. */
function WarningDialog({ msLeft }: { msLeft: number }) {
  const services = useServices();
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const titleId = useId();
  const messageId = useId();
  const timerId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState<'stay' | 'signOut' | null>(null);
  const [failed, setFailed] = useState(false);
  const [openedWith] = useState(() => Math.ceil(msLeft / 1000));

  // Modal: everything else on the page is inert while the warning shows; focus comes back after.
  useEffect(() => {
    const container = containerRef.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const siblings = [...(container?.parentElement?.children ?? [])].filter(
      (el): el is HTMLElement => el instanceof HTMLElement && el !== container && !el.inert,
    );
    for (const el of siblings) el.inert = true;
    // The safe choice first: Enter or Space at once keeps the session.
    container?.querySelector<HTMLButtonElement>('.idle-warning__stay')?.focus();
    return () => {
      for (const el of siblings) el.inert = false;
      if (opener && opener.isConnected && opener !== document.body) opener.focus({ preventScroll: true });
    };
  }, []);

  const stay = async () => {
    setBusy('stay');
    setFailed(false);
    try {
      updateUser(services, await keepSessionAlive(services.api));
      // The API client has recorded the call: the watch moves the end and closes this dialog.
    } catch (error) {
      // A 401 has started the timeout path and the page is reloading.
      if (!(error instanceof RequestError && error.sessionTimeout)) setFailed(true);
    } finally {
      setBusy(null);
    }
  };

  const signOut = async () => {
    setBusy('signOut');
    navigate(await logout(services), { replace: true });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Escape means "I am here": the safe reading of dismissing a warning.
    if (event.key === 'Escape') {
      event.preventDefault();
      if (!busy) void stay();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const lastOne = focusable[focusable.length - 1];
    if (!first || !lastOne) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      lastOne.focus();
    } else if (!event.shiftKey && document.activeElement === lastOne) {
      event.preventDefault();
      first.focus();
    }
  };

  const { minutes, seconds } = countdownParts(msLeft);
  const two = new Intl.NumberFormat(locale.code, { minimumIntegerDigits: 2, useGrouping: false });
  const one = new Intl.NumberFormat(locale.code, { useGrouping: false });
  const countdown = `${one.format(minutes)}:${two.format(seconds)}`;
  const announcement = milestoneText(Math.ceil(msLeft / 1000), openedWith, locale.code, t);

  return (
    <div className="idle-warning" ref={containerRef}>
      <div className="idle-warning__backdrop" aria-hidden="true" />
      <div
        className="idle-warning__dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={`${messageId} ${timerId}`}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="idle-warning__title">
          {t('idleWarning.title')}
        </h2>
        <p id={messageId}>{t('idleWarning.message')}</p>
        <p className="idle-warning__countdown">
          <span className="idle-warning__countdown-label">{t('idleWarning.timeLeft')}</span>{' '}
          {/* role=timer is a live region that is not announced: the visible count may tick every second. */}
          <span id={timerId} role="timer" className="idle-warning__time" dir="ltr">
            {countdown}
          </span>
        </p>
        <p className="ui-visually-hidden" aria-live="polite">
          {announcement}
        </p>
        {failed ? (
          <p className="idle-warning__error" role="alert">
            {t('idleWarning.error')}
          </p>
        ) : null}
        <div className="idle-warning__actions">
          <Button
            className="idle-warning__stay"
            onClick={() => void stay()}
            busy={busy === 'stay'}
            busyLabel={t('idleWarning.staying')}
            disabled={busy !== null}
          >
            {t('idleWarning.stay')}
          </Button>
          <Button variant="secondary" onClick={() => void signOut()} busy={busy === 'signOut'} disabled={busy !== null}>
            {t('idleWarning.signOut')}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Announced moments: each passing minute mark and 30 and 10 seconds before the end. */
const MILESTONES = [10, 30, 60, 120, 180, 240, 300];

function milestoneText(
  secondsLeft: number,
  openedWith: number,
  locale: string,
  t: (key: string, values?: Record<string, string>) => string,
): string {
  const milestone = MILESTONES.find((m) => secondsLeft <= m && m < openedWith);
  if (milestone === undefined) return '';
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  const time = milestone >= 60 ? relative.format(milestone / 60, 'minute') : relative.format(milestone, 'second');
  return t('idleWarning.announce', { time });
}
