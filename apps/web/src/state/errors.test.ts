import { describe, expect, it, vi } from 'vitest';
import { createApiClient, NON_JSON_MESSAGE, RequestError } from '../api/client.ts';
import { createStore } from './store.ts';
import { errorText, isServerError, toServerError } from './errors.ts';
import { translate } from '../i18n/translate.ts';

const t = (key: string, values?: Readonly<Record<string, string | number>>) =>
  translate(
    {
      'login.error.invalidCredentials': "That user ID and password don't match.",
      'ots.error.tooMany': 'You cannot redeem more {mediaLabel} today.',
      'error.nonJson': NON_JSON_MESSAGE,
      'error.generic': 'Something went wrong.',
    },
    key,
    values,
  );

describe('the error store', () => {
  it('gives every error a running id', () => {
    const store = createStore();
    store.addError('login', { errorCode: 20001, responseMessage: 'login.error.invalidCredentials', message: 'Invalid' });
    store.addError('bundle', { errorCode: 10500, responseMessage: 'error.internal', message: 'x' });
    store.addError('login', { errorCode: 20029, responseMessage: 'login.error.throttled', message: 'y' });
    expect(store.getState().errors.map((e) => [e.errorId, e.errorType])).toEqual([
      [1, 'login'],
      [2, 'bundle'],
      [3, 'login'],
    ]);
  });

  it('dismisses one, by type, and all', () => {
    const store = createStore();
    for (const type of ['login', 'bundle', 'login', 'setLocale'] as const) store.addError(type, { errorCode: 1, message: 'm' });
    store.dismissError(2);
    expect(store.getState().errors.map((e) => e.errorId)).toEqual([1, 3, 4]);
    store.dismissErrors('login');
    expect(store.getState().errors.map((e) => e.errorId)).toEqual([4]);
    store.addError('ots', { errorCode: 1, message: 'm' });
    expect(store.getState().errors.map((e) => e.errorId)).toEqual([4, 5]);
    store.dismissAllErrors();
    expect(store.getState().errors).toEqual([]);
  });

  it('leaves the state alone, and tells no one, when there is nothing of that type to dismiss', () => {
    const store = createStore();
    store.addError('login', { errorCode: 1, message: 'm' });
    store.addSuccess({ successType: 'ots', message: 'ots.success' });
    const before = store.getState();
    const listener = vi.fn();
    store.subscribe(listener);
    store.dismissErrors('ots');
    store.dismissSuccess('contactUs');
    expect(listener).not.toHaveBeenCalled();
    expect(store.getState()).toBe(before);
    store.dismissErrors('login');
    store.dismissSuccess('ots');
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getState()).toMatchObject({ errors: [], successes: [] });
  });
});

describe('error messages', () => {
  it('translates responseMessage with the media label', () => {
    expect(errorText({ errorCode: 1, responseMessage: 'ots.error.tooMany', message: 'Too many' }, t, 'Acme Points')).toBe(
      'You cannot redeem more Acme Points today.',
    );
  });

  it('uses message as the code when there is no responseMessage', () => {
    expect(errorText({ errorCode: 20001, message: 'login.error.invalidCredentials' }, t, '')).toBe(
      "That user ID and password don't match.",
    );
  });

  it('shows a key missing from the bundle as "Missing locale value (key)"', () => {
    expect(errorText({ errorCode: 1, responseMessage: 'error.brandNew', message: 'x' }, t, '')).toBe(
      'Missing locale value (error.brandNew)',
    );
  });
});

describe('server error recognition (spec section 8)', () => {
  it('recognises message plus name, a numeric errorCode, or a null errorCode with responseMessage', () => {
    expect(isServerError({ message: 'x', name: 'HttpError' })).toBe(true);
    expect(isServerError({ errorCode: 20001 })).toBe(true);
    expect(isServerError({ errorCode: null, responseMessage: 'error.internal' })).toBe(true);
    expect(isServerError({ errorCode: null })).toBe(false);
    expect(isServerError({ message: 'only a message' })).toBe(false);
    expect(isServerError('boom')).toBe(false);
  });

  it('wraps anything else as a generic error', () => {
    expect(toServerError({ weird: true })).toMatchObject({ errorCode: null, responseMessage: 'error.generic' });
    expect(errorText(toServerError(42), t, '')).toBe('Something went wrong.');
  });
});

describe('a reply that is not JSON', () => {
  it('becomes the "Expected JSON" error', async () => {
    const fetch = vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const api = createApiClient({ getSessionId: () => null, onSessionTimeout: vi.fn(), fetch, origin: 'http://localhost' });
    const error = await api.request('GET', '/viewConfig/client').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe(NON_JSON_MESSAGE);

    const store = createStore();
    store.addError('clientData', error);
    const [item] = store.getState().errors;
    expect(item && errorText(item, t, '')).toBe(NON_JSON_MESSAGE);
  });
});
