import { API_BASE, CLIENT_HEADER, SESSION_HEADER } from '@rewards/contract/paths';

/** Shown when a reply that should be JSON is not (spec section 8). */
export const NON_JSON_MESSAGE = 'Expected JSON from remote server, but could not parse the response';

interface RequestErrorFields {
  status: number;
  errorCode: number | null;
  responseMessage: string;
  message: string;
}

/** Every failed call surfaces as this: the server's error shape plus the HTTP status. */
export class RequestError extends Error {
  override name = 'RequestError';
  readonly status: number;
  readonly errorCode: number | null;
  readonly responseMessage: string;
  /** Set when a 401 on an existing session started the timeout path (the page is reloading). */
  readonly sessionTimeout: boolean;

  constructor(fields: RequestErrorFields, sessionTimeout = false) {
    super(fields.message);
    this.status = fields.status;
    this.errorCode = fields.errorCode;
    this.responseMessage = fields.responseMessage;
    this.sessionTimeout = sessionTimeout;
  }
}

interface ApiClientOptions {
  /** The session to send in x-session-id, if any. */
  getSessionId: () => string | null;
  /** Called on a 401 to a call that carried a session: the spec's session-timeout path. */
  onSessionTimeout: () => void;
  /**
   * Called when a call that carried the session got a successful reply, with the time the call
   * was sent (the server saw it no earlier): the idle warning counts from the latest one.
   */
  onSessionActivity?: (activity: SessionActivityEvent) => void;
  fetch?: typeof fetch;
  origin?: string;
}

export interface SessionActivityEvent {
  /** Date.now() when the call was sent. */
  at: number;
  /** The API path called (below /api/v1.0), since not every path keeps a session alive. */
  path: string;
  sessionId: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Overrides the store's session (start-up and login know the id before the store does). */
  sessionId?: string | null;
  /** The reply carries no JSON (GET logout answers 204). */
  noContent?: boolean;
  /** A 401 here is not a timeout (logout of an already expired session). */
  ignoreSessionTimeout?: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
}

function isErrorShape(value: unknown): value is { errorCode: number | null; responseMessage?: string; message?: string } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.errorCode === 'number' || (record.errorCode === null && typeof record.responseMessage === 'string');
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const origin = options.origin ?? window.location.origin;

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
    const sessionId = opts.sessionId === undefined ? options.getSessionId() : opts.sessionId;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      [CLIENT_HEADER]: origin,
    };
    if (sessionId) headers[SESSION_HEADER] = sessionId;

    const sentAt = Date.now();
    let response: Response;
    try {
      response = await doFetch(API_BASE + path, {
        method,
        headers,
        credentials: 'same-origin',
        cache: 'no-store',
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
    } catch (cause) {
      throw new RequestError({
        status: 0,
        errorCode: null,
        responseMessage: 'error.network',
        message: cause instanceof Error ? cause.message : String(cause),
      });
    }

    if (response.status === 401 && sessionId && !opts.ignoreSessionTimeout) {
      options.onSessionTimeout();
      throw new RequestError({ status: 401, errorCode: null, responseMessage: 'error.session.expired', message: 'Session expired' }, true);
    }

    if (response.ok && sessionId) options.onSessionActivity?.({ at: sentAt, path, sessionId });

    if (response.ok && opts.noContent) return undefined as T;

    const text = await response.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new RequestError({
        status: response.status,
        errorCode: null,
        responseMessage: 'error.nonJson',
        message: NON_JSON_MESSAGE,
      });
    }

    if (!response.ok) {
      if (isErrorShape(data)) {
        throw new RequestError({
          status: response.status,
          errorCode: data.errorCode,
          responseMessage: data.responseMessage ?? '',
          message: data.message ?? '',
        });
      }
      throw new RequestError({
        status: response.status,
        errorCode: null,
        responseMessage: 'error.generic',
        message: `HTTP ${response.status}`,
      });
    }
    // Replies are typed by the contract; the server validates them against the same schemas.
    return data as T;
  }

  return { request };
}
