import type { ClientData, Locale, UserData } from '@rewards/contract';
import type { Properties } from '../i18n/translate.ts';
import {
  addError,
  dismissError,
  dismissErrorsOfType,
  type ErrorItem,
  type ErrorType,
  type SuccessItem,
  type SuccessType,
} from './errors.ts';

/** The app state the spec names (session, errors, successes) in one small store. */
export interface AppState {
  /** Start-up: loading until client data, bundle and session user are in (spec section 4). */
  status: 'loading' | 'loaded' | 'failed';
  client: ClientData | null;
  /** The language the interface shows: the user's when signed in, else the visitor's choice. */
  locale: Locale;
  /** Bundles fetched so far, by locale code. */
  bundles: Readonly<Record<string, Properties>>;
  user: UserData | null;
  /** Set after the reload of the session-timeout path; the login screen says so. */
  sessionTimedOut: boolean;
  /** Login answered 20013: a warning instead of an error. */
  preActivationWarning: boolean;
  busy: { login: boolean; logout: boolean; locale: boolean; privacy: boolean };
  /** Privacy notice version an anonymous visitor has closed the cookie notice for. */
  anonymousPrivacyAck: number;
  /** Where start-up wants to go once the router is there (/error, /sso-logout). */
  redirect: string | null;
  errors: readonly ErrorItem[];
  successes: readonly SuccessItem[];
  nextErrorId: number;
}

const initialState: AppState = {
  status: 'loading',
  client: null,
  locale: { code: 'en-US', dir: 'ltr' },
  bundles: {},
  user: null,
  sessionTimedOut: false,
  preActivationWarning: false,
  busy: { login: false, logout: false, locale: false, privacy: false },
  anonymousPrivacyAck: 0,
  redirect: null,
  errors: [],
  successes: [],
  nextErrorId: 1,
};

type Listener = () => void;

export interface Store {
  getState(): AppState;
  setState(update: Partial<AppState> | ((state: AppState) => Partial<AppState>)): void;
  subscribe(listener: Listener): () => void;
  addError(type: ErrorType, error: unknown): void;
  dismissError(errorId: number): void;
  dismissErrors(...types: ErrorType[]): void;
  dismissAllErrors(): void;
  addSuccess(success: Omit<SuccessItem, 'done'>): void;
  dismissSuccess(type: SuccessType): void;
  setBusy(key: keyof AppState['busy'], value: boolean): void;
}

export function createStore(initial: Partial<AppState> = {}): Store {
  let state: AppState = { ...initialState, ...initial };
  const listeners = new Set<Listener>();

  const setState: Store['setState'] = (update) => {
    const patch = typeof update === 'function' ? update(state) : update;
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  return {
    getState: () => state,
    setState,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    addError: (type, error) =>
      setState((s) => ({ errors: addError(s.errors, s.nextErrorId, type, error), nextErrorId: s.nextErrorId + 1 })),
    dismissError: (errorId) => setState((s) => ({ errors: dismissError(s.errors, errorId) })),
    // Pages dismiss their messages on every mount; with none shown that changes nothing, and
    // every subscriber need not be asked (decision 030).
    dismissErrors: (...types) => {
      if (state.errors.some((e) => types.includes(e.errorType))) setState((s) => ({ errors: dismissErrorsOfType(s.errors, ...types) }));
    },
    dismissAllErrors: () => setState({ errors: [] }),
    addSuccess: (success) =>
      setState((s) => ({
        successes: [...s.successes.filter((x) => x.successType !== success.successType), { ...success, done: true }],
      })),
    dismissSuccess: (type) => {
      if (state.successes.some((x) => x.successType === type))
        setState((s) => ({ successes: s.successes.filter((x) => x.successType !== type) }));
    },
    setBusy: (key, value) => setState((s) => ({ busy: { ...s.busy, [key]: value } })),
  };
}
