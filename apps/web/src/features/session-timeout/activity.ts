import type { SessionActivityEvent } from '../../api/client.ts';

/**
 * The time of the latest call that kept the signed-in session alive, shared with the other tabs
 * of this browser that use the same session (a duplicated tab keeps its session storage).
 *
 * Fed by the API client (`onSessionActivity`, wired in app/App.tsx). Tabs tell each other over a
 * BroadcastChannel, never by storage, so nothing outlives the tabs; the message carries a short
 * hash of the session id, never the id itself, and a tab with another session ignores it.
 */
export interface SessionActivity {
  /** The latest activity of this session (ms since the epoch), or null when none is known. */
  lastFor(sessionId: string): number | null;
  /** A call of this tab kept the session alive. */
  record(event: SessionActivityEvent): void;
  subscribe(listener: () => void): () => void;
  close(): void;
}

/** Calls that do not pass the session guard, so they do not slide the server's idle expiry. */
const NOT_KEEPING_ALIVE = [/^\/viewConfig\//, /^\/login$/, /^\/logout$/];

export const keepsSessionAlive = (path: string) => !NOT_KEEPING_ALIVE.some((pattern) => pattern.test(path));

/** FNV-1a, 32 bits: enough to tell sessions apart, useless for recovering the id. */
export function sessionKey(sessionId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) {
    hash ^= sessionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16);
}

const CHANNEL = 'rewards-session-activity';

interface Message {
  key: string;
  at: number;
}

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && typeof (value as Message).key === 'string' && typeof (value as Message).at === 'number';

export function createSessionActivity(channel: BroadcastChannel | null = openChannel()): SessionActivity {
  let latest: Message | null = null;
  const listeners = new Set<() => void>();

  const note = (message: Message) => {
    if (latest && latest.key === message.key && latest.at >= message.at) return false;
    latest = message;
    for (const listener of listeners) listener();
    return true;
  };

  const onMessage = (event: MessageEvent) => {
    if (isMessage(event.data)) note(event.data);
  };
  channel?.addEventListener('message', onMessage);

  return {
    lastFor: (sessionId) => (latest && latest.key === sessionKey(sessionId) ? latest.at : null),
    record({ at, path, sessionId }) {
      if (!keepsSessionAlive(path)) return;
      const message = { key: sessionKey(sessionId), at };
      if (note(message)) channel?.postMessage(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      channel?.removeEventListener('message', onMessage);
      channel?.close();
    },
  };
}

function openChannel(): BroadcastChannel | null {
  try {
    return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  } catch {
    return null;
  }
}

let shared: SessionActivity | null = null;

/** The one tracker of this tab, fed by the API client; made on first use. */
export function getSessionActivity(): SessionActivity {
  shared ??= createSessionActivity();
  return shared;
}
