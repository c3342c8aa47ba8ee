import { describe, expect, it, vi } from 'vitest';
import { createApiClient, RequestError } from './client.ts';
import { getUser, login, logout } from './endpoints.ts';

function setup(reply: () => Response, sessionId: string | null = null) {
  const fetch = vi.fn<typeof globalThis.fetch>(async () => reply());
  const onSessionTimeout = vi.fn();
  const api = createApiClient({ getSessionId: () => sessionId, onSessionTimeout, fetch, origin: 'http://localhost:3000' });
  return { api, fetch, onSessionTimeout };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('the API client', () => {
  it('sends the spec headers, same-origin credentials and no caching', async () => {
    const { api, fetch } = setup(() => json({ ok: true }), 'abc');
    await getUser(api);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1.0/user');
    expect(init).toMatchObject({ method: 'GET', credentials: 'same-origin', cache: 'no-store' });
    expect(init?.headers).toEqual({
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'client-id': 'http://localhost:3000',
      'x-session-id': 'abc',
    });
  });

  it('sends no session header before there is a session', async () => {
    const { api, fetch } = setup(() => json({}));
    await login(api, { username: 'demo', password: 'pw' });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.headers).not.toHaveProperty('x-session-id');
    expect(init?.body).toBe('{"username":"demo","password":"pw"}');
  });

  it('turns an error reply into a RequestError with its code and translation key', async () => {
    const { api, onSessionTimeout } = setup(() =>
      json({ errorCode: 20001, responseMessage: 'login.error.invalidCredentials', message: 'Invalid credentials' }, 401),
    );
    const error = (await login(api, { username: 'x', password: 'y' }).catch((e: unknown) => e)) as RequestError;
    expect(error).toMatchObject({ status: 401, errorCode: 20001, responseMessage: 'login.error.invalidCredentials' });
    // A 401 without a session is a failed login, not a timeout.
    expect(onSessionTimeout).not.toHaveBeenCalled();
  });

  it('reports a successful call that carried the session, with the time it was sent', async () => {
    const onSessionActivity = vi.fn();
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json({}));
    const api = createApiClient({
      getSessionId: () => 'abc',
      onSessionTimeout: vi.fn(),
      onSessionActivity,
      fetch,
      origin: 'http://localhost',
    });
    const before = Date.now();
    await getUser(api);
    expect(onSessionActivity).toHaveBeenCalledOnce();
    const [event] = onSessionActivity.mock.calls[0] ?? [];
    expect(event).toMatchObject({ path: '/user', sessionId: 'abc' });
    expect(event.at).toBeGreaterThanOrEqual(before);

    // Neither a call without a session nor a failed one counts.
    await login(api, { username: 'demo', password: 'pw' });
    fetch.mockImplementationOnce(async () => json({ errorCode: 1, responseMessage: 'x', message: 'x' }, 400));
    await getUser(api).catch(() => undefined);
    expect(onSessionActivity).toHaveBeenCalledOnce();
  });

  it('takes the session-timeout path on a 401 to a call that carried a session', async () => {
    const { api, onSessionTimeout } = setup(
      () => json({ errorCode: 10401, responseMessage: 'error.session.expired', message: 'Expired' }, 401),
      'abc',
    );
    const error = (await getUser(api).catch((e: unknown) => e)) as RequestError;
    expect(onSessionTimeout).toHaveBeenCalledOnce();
    expect(error.sessionTimeout).toBe(true);
  });

  it('does not parse the 204 of logout, nor time out on its 401', async () => {
    const ok = setup(() => new Response(null, { status: 204 }), 'abc');
    await expect(logout(ok.api)).resolves.toBeUndefined();
    const expired = setup(() => json({ errorCode: 10401, responseMessage: 'error.session.expired', message: 'x' }, 401), 'abc');
    await expect(logout(expired.api)).rejects.toBeInstanceOf(RequestError);
    expect(expired.onSessionTimeout).not.toHaveBeenCalled();
  });

  it('reports a network failure with a translation key', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const api = createApiClient({ getSessionId: () => null, onSessionTimeout: vi.fn(), fetch, origin: 'o' });
    await expect(getUser(api)).rejects.toMatchObject({ responseMessage: 'error.network', status: 0 });
  });
});
