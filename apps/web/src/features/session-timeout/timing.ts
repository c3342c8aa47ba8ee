/**
 * When to warn and when to end an idle session, from the time of the latest call that kept it
 * alive. Pure, so the reasoning below is tested without a browser.
 *
 * The server slides a session's idle expiry at most once a minute (sessions/service.ts): after a
 * call the server saw at S, its last touch lies within the minute before S, so the session lives
 * at least until S - 1 min + idle. The web counts from the send time of the call (no later than
 * S) and ends the session one minute early: it never shows a session as alive that the server
 * has already ended.
 *
 * "Stay signed in" must truly extend: GET user slides the expiry only when a minute has passed
 * since the server's last touch. The warning shows at the earliest 1 min + 5 s after the latest
 * call (the lead is capped for short idle times), so by then a minute has always passed and the
 * keep-alive slides, with 5 s to spare for the latency of that latest call.
 */
export const MINUTE_MS = 60_000;
/** The server's slide interval (TOUCH_INTERVAL_MS in apps/server/src/modules/sessions/service.ts). */
const SLIDE_MS = MINUTE_MS;
/** The warning shows two minutes before the end. */
const WARNING_LEAD_MS = 2 * MINUTE_MS;
/** Room for the latency of the call the warning counts from. */
const LATENCY_MARGIN_MS = 5_000;

interface IdleSchedule {
  /** When the warning shows; null when the idle time is too short for a keep-alive that slides. */
  warnAt: number | null;
  /** When the app ends the session. */
  endAt: number;
}

export function idleSchedule(lastActivityAt: number, idleMinutes: number): IdleSchedule {
  const idleMs = idleMinutes * MINUTE_MS;
  // Under three minutes there is no room for a warning that a keep-alive could act on.
  if (idleMs < 3 * MINUTE_MS) return { warnAt: null, endAt: lastActivityAt + idleMs };
  const endAt = lastActivityAt + idleMs - SLIDE_MS;
  const lead = Math.min(WARNING_LEAD_MS, idleMs - 2 * SLIDE_MS - LATENCY_MARGIN_MS);
  return { warnAt: endAt - lead, endAt };
}

/** "1:59": minutes and seconds left, rounded up so the countdown reaches 0:00 at the end. */
export function countdownParts(msLeft: number): { minutes: number; seconds: number } {
  const total = Math.max(0, Math.ceil(msLeft / 1000));
  return { minutes: Math.floor(total / 60), seconds: total % 60 };
}
