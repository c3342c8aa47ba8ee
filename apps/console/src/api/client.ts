import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { ErrorCode, type ErrorParams } from '@rewards/contract/errors';

/** A refusal from the console API, in the one error shape of the wire. */
export class ConsoleApiError extends Error {
  readonly status: number;
  readonly errorCode: number;
  readonly responseMessage: string;
  /** The refusal's particulars for the console's own text of responseMessage (ui/error-text.ts, decision 087). */
  readonly params: ErrorParams;

  constructor(status: number, errorCode: number, responseMessage: string, message: string, params: ErrorParams = {}) {
    super(message);
    this.name = 'ConsoleApiError';
    this.status = status;
    this.errorCode = errorCode;
    this.responseMessage = responseMessage;
    this.params = params;
  }
}

type Query = Record<string, string | number | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  /** Do not report a 401 as an ended session (the first `me`, which asks whether there is one). */
  quiet401?: boolean;
  /** The reply's body as text rather than JSON (a CSV that is the only copy, such as a new code batch's). */
  text?: boolean;
}

/**
 * What the app plugs in (App.tsx): the step-up dialog, which resolves true once the person passed
 * a second factor again, and the ended-session path. Plain functions, so the fetch client needs no React.
 */
const hooks: { stepUp: (() => Promise<boolean>) | null; sessionEnded: (() => void) | null; activity: (() => void) | null } = {
  stepUp: null,
  sessionEnded: null,
  activity: null,
};
export function setApiHooks(next: Partial<typeof hooks>): void {
  Object.assign(hooks, next);
}

export function apiUrl(path: string, query?: Query): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') search.set(name, String(value));
  const qs = search.toString();
  return `${CONSOLE_API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  // Same origin: the cookie goes along, and the browser adds the Origin header the API checks on changes.
  return fetch(apiUrl(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function errorOf(response: Response): Promise<ConsoleApiError> {
  try {
    const body = (await response.json()) as { errorCode?: number; responseMessage?: string; message?: string; params?: ErrorParams };
    return new ConsoleApiError(
      response.status,
      body.errorCode ?? 0,
      body.responseMessage ?? '',
      body.message ?? response.statusText,
      body.params ?? {},
    );
  } catch {
    return new ConsoleApiError(response.status, 0, '', response.statusText);
  }
}

/**
 * One call to the console API. A 403 asking for a fresh second factor opens the step-up dialog
 * and, once passed, sends the same request again (same body: an adjustment keeps its requestId,
 * so it still posts once). A 401 on a signed-in call ends the session in the app.
 */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: RequestOptions = {}): Promise<T> {
  let response = await send(method, path, options);
  if (response.status === 403 && hooks.stepUp) {
    const error = await errorOf(response.clone());
    if (error.errorCode === ErrorCode.staffFreshSecondFactorRequired) {
      if (!(await hooks.stepUp())) throw error;
      response = await send(method, path, options);
    }
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && error.errorCode === ErrorCode.sessionRequired && !options.quiet401) hooks.sessionEnded?.();
    throw error;
  }
  hooks.activity?.();
  if (response.status === 204) return undefined as T;
  if (options.text) return (await response.text()) as T;
  return (await response.json()) as T;
}
