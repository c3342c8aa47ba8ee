import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiClient } from '../api/client.ts';
import type { AppState, Store } from './store.ts';

export interface AppServices {
  store: Store;
  api: ApiClient;
}

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext value={services}>{children}</ServicesContext>;
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs a ServicesProvider above it');
  return services;
}

/** Subscribes to one slice of the store; the selector must return a stored value, not a new object. */
export function useAppState<T>(selector: (state: AppState) => T): T {
  const { store } = useServices();
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.getState()),
    () => selector(store.getState()),
  );
}
