import type { Locale, UserData } from '@rewards/contract';
import type { Properties } from '../i18n/translate.ts';

/** Session storage keys, exactly as spec section 9 names them. */
const USER_STATE = 'userState';
const BUNDLE_STATE = 'bundleState';
export const SESSION_TIMED_OUT = 'sessionTimedOut';
/** localStorage: the privacy notice version an anonymous visitor closed the cookie notice for. */
export const ANONYMOUS_PRIVACY_ACK = 'privacyNoticeAcknowledged';

interface BundleState {
  locale: Locale;
  properties: Properties;
}

function read<T>(storage: Storage, key: string, valid: (value: unknown) => boolean): T | null {
  try {
    const raw = storage.getItem(key);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return valid(value) ? (value as T) : null;
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the app works, it only forgets on reload.
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export const readUserState = () => read<UserData>(sessionStorage, USER_STATE, (v) => isObject(v) && typeof v.sessionId === 'string');
export const writeUserState = (user: UserData) => write(sessionStorage, USER_STATE, user);

export const readBundleState = () =>
  read<BundleState>(
    sessionStorage,
    BUNDLE_STATE,
    (v) => isObject(v) && isObject(v.locale) && typeof v.locale.code === 'string' && isObject(v.properties),
  );
export const writeBundleState = (state: BundleState) => write(sessionStorage, BUNDLE_STATE, state);

export function clearSessionState(): void {
  sessionStorage.removeItem(USER_STATE);
  sessionStorage.removeItem(BUNDLE_STATE);
}

export function readAnonymousAck(): number {
  const value = Number(localStorage.getItem(ANONYMOUS_PRIVACY_ACK));
  return Number.isInteger(value) ? value : 0;
}

export function writeAnonymousAck(version: number): void {
  try {
    localStorage.setItem(ANONYMOUS_PRIVACY_ACK, String(version));
  } catch {
    // See write(): the notice then simply shows again next visit.
  }
}
