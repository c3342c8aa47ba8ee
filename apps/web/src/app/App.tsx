import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { BrowserRouter, useLocation, useNavigate } from 'react-router';
import { createApiClient } from '../api/client.ts';
import { createStore } from '../state/store.ts';
import { useAppState, useServices, type AppServices } from '../state/StoreContext.tsx';
import type { AppState } from '../state/store.ts';
import { useI18n } from '../i18n/I18nContext.tsx';
import { LoadingOverlay } from '../ui/Spinner.tsx';
import { AppProviders } from './AppProviders.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { IdleWarning } from '../features/session-timeout/IdleWarning.tsx';
import { getSessionActivity } from '../features/session-timeout/activity.ts';
import { findRoute, firstScreenChunks, routes } from './routes.ts';
import { preloadWhenIdle, whenIdle } from './preload.ts';
import { nextTask, sessionTimeout, startUp } from './startup.ts';

export function createServices(): AppServices {
  const store = createStore();
  const api = createApiClient({
    getSessionId: () => store.getState().user?.sessionId ?? null,
    onSessionTimeout: () => sessionTimeout(),
    // The idle warning counts from the latest call that kept the session alive.
    onSessionActivity: (activity) => getSessionActivity().record(activity),
  });
  return { store, api };
}

/**
 * Spec section 2's development-only navigation panel. `import.meta.env.DEV` is false in a
 * production build, so the bundler drops this branch and the panel's chunk altogether.
 */
const DevPanel = import.meta.env.DEV ? lazy(() => import('../features/dev/DevPanel.tsx')) : null;
const devRoutes = import.meta.env.DEV ? routes.map(({ path, access, modal }) => ({ path, access, modal })) : [];

const onIdleTimeout = () => sessionTimeout();

const loadFirstScreen = (signedIn: boolean) =>
  Promise.all(firstScreenChunks(window.location.pathname, signedIn).map((chunk) => chunk.load()));

type AppStatus = AppState['status'];

/** The loading overlay fades out over 400 ms (spec section 9) once start-up is done. */
function Loading({ status }: { status: AppStatus }) {
  const { t, has } = useI18n();
  const [gone, setGone] = useState(false);
  useEffect(() => {
    if (status === 'loading') return;
    const timer = setTimeout(() => setGone(true), 400);
    return () => clearTimeout(timer);
  }, [status]);
  if (gone) return null;
  return <LoadingOverlay leaving={status !== 'loading'} label={has('common.loading') ? t('common.loading') : undefined} />;
}

function Shell() {
  // The app's first render after start-up (frame and page, tens of milliseconds on a slow phone)
  // runs as a transition: React renders it in slices of a few milliseconds, so the main thread
  // is never blocked for long (Lighthouse's total blocking time, decision 030). The overlay stays
  // until that render is committed.
  const status = useDeferredValue(useAppState((s) => s.status));
  const redirect = useAppState((s) => s.redirect);
  const { store } = useServices();
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    if (!redirect) return;
    store.setState({ redirect: null });
    navigate(redirect, { replace: true });
  }, [redirect, navigate, store]);

  useEffect(() => {
    if (status !== 'loaded') return;
    // After start-up, fetch every page in the background, the current one first.
    return preloadWhenIdle(findRoute(location.pathname));
    // Only once per start-up: later navigations find the pages already loaded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status]);

  return (
    <>
      {status === 'loaded' ? <AppRoutes /> : status === 'failed' ? <Failed /> : null}
      {status === 'loaded' ? <IdleWarning onTimedOut={onIdleTimeout} /> : null}
      {DevPanel && status !== 'loading' ? (
        <Suspense fallback={null}>
          <DevPanel routes={devRoutes} />
        </Suspense>
      ) : null}
      <Loading status={status} />
    </>
  );
}

/** Start-up runs once per app instance, also under StrictMode's double effects. */
const started = new WeakSet<AppServices>();

/** No client data: only the error screen, with the built-in English texts (spec section 4). */
function Failed() {
  const ErrorScreen = findRoute('/error')?.chunk.Component;
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('title.error');
  }, [t]);
  return (
    <main id="main" className="app__main app__main--failed">
      <Suspense fallback={null}>{ErrorScreen ? <ErrorScreen /> : null}</Suspense>
    </main>
  );
}

export function App({ services }: { services: AppServices }) {
  useEffect(() => {
    if (started.has(services)) return;
    started.add(services);
    void startUp(services, { loadFirstScreen, yieldToBrowser: nextTask, later: (task) => void whenIdle(task) });
  }, [services]);
  return (
    <AppProviders services={services}>
      <BrowserRouter>
        <Shell />
      </BrowserRouter>
    </AppProviders>
  );
}
