import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { ClientData, UserData } from '@rewards/contract';
import type { ApiClient } from '../api/client.ts';
import { createStore, type AppState } from '../state/store.ts';
import { AppProviders } from '../app/AppProviders.tsx';
import { enUS, makeClient } from './fixtures.ts';

interface Options {
  user?: UserData | null;
  client?: ClientData;
  path?: string | { pathname: string; state?: unknown };
  state?: Partial<AppState>;
  /** Answers of the fake API, by "METHOD path". */
  request?: ApiClient['request'];
}

/** Shows the router's current path, so that tests can see where a redirect went. */
function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** Renders with a loaded store (client data, English bundle, optional user) and a memory router. */
export function renderWithApp(ui: ReactNode, options: Options = {}) {
  const client = options.client ?? makeClient();
  const user = options.user ?? null;
  const store = createStore({
    status: 'loaded',
    client,
    locale: user?.locale ?? client.locale,
    bundles: { 'en-US': enUS },
    user,
    ...options.state,
  });
  const request = vi.fn(options.request ?? (() => Promise.reject(new Error('no fake answer'))));
  const api: ApiClient = { request: request as ApiClient['request'] };
  const services = { store, api };
  const result = render(
    <AppProviders services={services}>
      <MemoryRouter initialEntries={[options.path ?? '/']}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, store, api, request };
}
