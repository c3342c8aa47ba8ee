import { useSyncExternalStore } from 'react';
import type { CatalogType } from '@rewards/contract';
import type { AppServices } from '../../state/StoreContext.tsx';

// Which catalogs failed to give a link in this session (spec section 2: the tile then says
// "down"). Shared by the tiles and the header menu, kept beside the app's store rather than in
// it so that the shops feature owns its own state. Keyed by session: another sign-in starts clean.

interface DownState {
  sessionId: string | null;
  types: readonly CatalogType[];
  listeners: Set<() => void>;
}

const states = new WeakMap<AppServices, DownState>();
const none: readonly CatalogType[] = [];

function stateOf(services: AppServices): DownState {
  let state = states.get(services);
  if (!state) {
    state = { sessionId: null, types: none, listeners: new Set() };
    states.set(services, state);
  }
  return state;
}

const currentSession = (services: AppServices) => services.store.getState().user?.sessionId ?? null;

function downCatalogs(services: AppServices): readonly CatalogType[] {
  const state = stateOf(services);
  return state.sessionId === currentSession(services) ? state.types : none;
}

export function markCatalogDown(services: AppServices, type: CatalogType): void {
  const state = stateOf(services);
  const types = downCatalogs(services);
  if (types.includes(type)) return;
  state.sessionId = currentSession(services);
  state.types = [...types, type];
  for (const listener of state.listeners) listener();
}

export function useDownCatalogs(services: AppServices): readonly CatalogType[] {
  const state = stateOf(services);
  return useSyncExternalStore(
    (listener) => {
      state.listeners.add(listener);
      const unsubscribeStore = services.store.subscribe(listener);
      return () => {
        state.listeners.delete(listener);
        unsubscribeStore();
      };
    },
    () => downCatalogs(services),
  );
}
