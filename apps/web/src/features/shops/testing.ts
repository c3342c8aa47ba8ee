import { vi } from 'vitest';
import { RequestError } from '../../api/client.ts';

/** A stand-in for the tab window.open returns: it records where it was sent and whether it closed. */
export function fakeTab() {
  return { opener: window as Window | null, closed: false, location: { href: 'about:blank' }, close: vi.fn() };
}

/** Stubs window.open with a fake tab and hands both back. */
export function stubWindowOpen(tab: ReturnType<typeof fakeTab> | null = fakeTab()) {
  const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  return { open, tab };
}

const catalogDownError = () =>
  new RequestError({ status: 503, errorCode: 50001, responseMessage: 'error.internal', message: 'Catalog unavailable' });

/** A fake API that answers the catalog-url call with a link, or fails it. */
export function catalogApi(answer: 'ok' | 'fail', onUser?: () => unknown) {
  return ((method: string, path: string) => {
    const match = /^\/user\/catalog-url\/(\w+)$/.exec(path);
    if (method === 'GET' && match) {
      return answer === 'ok'
        ? Promise.resolve({ catalogUrl: `https://catalog.example/${match[1]}?token=signed` })
        : Promise.reject(catalogDownError());
    }
    if (method === 'GET' && path === '/user' && onUser) return Promise.resolve(onUser());
    return Promise.reject(new Error(`no fake answer for ${method} ${path}`));
  }) as never;
}
