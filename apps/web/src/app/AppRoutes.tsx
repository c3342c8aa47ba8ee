import { Suspense, useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useI18n } from '../i18n/I18nContext.tsx';
import { useAppState } from '../state/StoreContext.tsx';
import { backgroundOf, paths } from '../routing/paths.ts';
import { Modal } from '../ui/Modal.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { AdminBanner, Header } from '../features/header/Header.tsx';
import { RedeemMenu } from '../features/shops/RedeemMenu.tsx';
import { Footer } from '../features/footer/Footer.tsx';
import { CookieNotice } from '../features/cookie-notice/CookieNotice.tsx';
import { GlobalAlerts } from '../features/errors/GlobalAlerts.tsx';
import { findRoute, resolveRoute, type RouteDef } from './routes.ts';
import { useExitTransition } from './motion.ts';
import { ChunkErrorBoundary } from './ChunkErrorBoundary.tsx';
import { ChunkLoadErrorView } from './ChunkLoadErrorView.tsx';

/** Spec section 2: page transitions 800 ms in (CSS) and 400 ms out; modals 300 ms out. */
const PAGE_EXIT_MS = 400;
const MODAL_EXIT_MS = 300;

function RouteBody({ route }: { route: RouteDef }) {
  const Page = route.chunk.Component;
  return (
    <ChunkErrorBoundary key={route.path} fallback={(error) => <ChunkLoadErrorView error={error} />}>
      <Suspense
        fallback={
          <div className="route-loading">
            <Spinner />
          </div>
        }
      >
        <Page />
      </Suspense>
    </ChunkErrorBoundary>
  );
}

/** Moves focus to the page's first heading once it is there (pages arrive lazily). */
function focusFirstHeading(container: HTMLElement | null): () => void {
  let frame = 0;
  let tries = 0;
  const attempt = () => {
    const heading = container?.querySelector<HTMLElement>('h1');
    if (heading) heading.focus({ preventScroll: true });
    else if (tries++ < 180) frame = requestAnimationFrame(attempt);
  };
  attempt();
  return () => cancelAnimationFrame(frame);
}

/**
 * The route table at work: guards and redirects, a modal over the previous page
 * (background-location pattern), titles, focus and transitions.
 */
export function AppRoutes() {
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useI18n();
  const signedIn = useAppState((s) => s.user !== null);
  const clientName = useAppState((s) => s.client?.clientBranding.clientName ?? '');
  const resolution = resolveRoute(location.pathname, signedIn);
  const start = signedIn ? paths.home : paths.login;

  // The page under a modal: the recorded background if it is still allowed, else the start page.
  let pageRoute: RouteDef | undefined = resolution.route;
  let modalRoute: RouteDef | undefined;
  const background = backgroundOf(location.state);
  if (resolution.route?.modal) {
    modalRoute = resolution.route;
    const under = background ? resolveRoute(background.pathname, signedIn).route : undefined;
    pageRoute = under && !under.modal ? under : findRoute(start);
  }

  const page = useExitTransition(pageRoute, (r) => r?.path ?? '', PAGE_EXIT_MS);
  const modal = useExitTransition(modalRoute, (r) => r?.path ?? '', MODAL_EXIT_MS);
  const mainRef = useRef<HTMLElement>(null);

  // Title of what is in front: the modal if one is open, else the page.
  const titleKey = (modalRoute ?? pageRoute)?.titleKey;
  useEffect(() => {
    if (!titleKey) return;
    document.title = t('title.format', { page: t(titleKey), clientName });
  }, [titleKey, clientName, t]);

  // After navigation to another page: scroll to the top and focus its first heading.
  // The first page shown after start-up keeps the natural tab order (skip link first).
  const shownPath = page.shown?.path;
  const previousPath = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!shownPath) return;
    const previous = previousPath.current;
    previousPath.current = shownPath;
    if (!previous || previous === shownPath) return;
    window.scrollTo({ top: 0 });
    return focusFirstHeading(mainRef.current);
  }, [shownPath]);

  if (resolution.redirect !== undefined) return <Navigate to={resolution.redirect} replace />;

  const closeModal = () => {
    const target = background ?? { pathname: start, search: '', hash: '' };
    navigate(target);
  };
  const modalOpen = Boolean(modalRoute);

  return (
    <div className={`app${signedIn ? ' app--signed-in' : ' app--signed-out'}`}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // In-page jump without touching the router's location.
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t('common.skipToContent')}
      </a>
      <div className="app__chrome" inert={modalOpen}>
        <AdminBanner />
        <Header redeemMenu={<RedeemMenu />} />
        <GlobalAlerts />
      </div>
      <main id="main" ref={mainRef} tabIndex={-1} className="app__main" inert={modalOpen}>
        {page.shown ? (
          <div key={page.shown.path} className={`page${page.leaving ? ' page--leaving' : ' page--entering'}`} data-page={page.shown.path}>
            <RouteBody route={page.shown} />
          </div>
        ) : null}
      </main>
      <Footer inert={modalOpen} />
      <CookieNotice />
      {modal.shown ? (
        <Modal key={modal.shown.path} closeLabel={t('common.close')} onClose={closeModal} leaving={modal.leaving}>
          <RouteBody route={modal.shown} />
        </Modal>
      ) : null}
    </div>
  );
}
