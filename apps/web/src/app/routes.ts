import { paths, modalPaths, normalizePath } from '../routing/paths.ts';
import { createChunk, type Chunk } from './chunks.ts';

export type Access = 'anonymous' | 'signedIn' | 'any';

export interface RouteDef {
  path: string;
  access: Access;
  modal: boolean;
  /** Translation key of the document title. */
  titleKey: string;
  /** Preload order of spec section 2: 1 (login) loads first after start-up. */
  priority: number;
  chunk: Chunk;
}

// One chunk per screen; screens that share a priority load together.
const chunks = {
  login: createChunk(() => import('../features/auth/LoginPage.tsx')),
  home: createChunk(() => import('./HomePage.tsx')),
  activation: createChunk(() => import('../features/auth/ActivationPage.tsx')),
  profile: createChunk(() => import('../features/profile/ProfilePage.tsx')),
  forgotUserId: createChunk(() => import('../features/auth/ForgotUserIdPage.tsx')),
  forgotPassword: createChunk(() => import('../features/auth/ForgotPasswordPage.tsx')),
  resetPassword: createChunk(() => import('../features/auth/ResetPasswordPage.tsx')),
  activityHistory: createChunk(() => import('../features/activity/ActivityHistoryPage.tsx')),
  rules: createChunk(() => import('../features/content/RulesPage.tsx')),
  contact: createChunk(() => import('../features/content/ContactPage.tsx')),
  faqs: createChunk(() => import('../features/content/FaqsPage.tsx')),
  privacyPolicy: createChunk(() => import('../features/content/PrivacyPolicyPage.tsx')),
  privacyNotice: createChunk(() => import('../features/content/PrivacyNoticePage.tsx')),
  error: createChunk(() => import('../features/errors/ErrorPage.tsx')),
  launchAs: createChunk(() => import('../features/launch-as/LaunchAsPage.tsx')),
  ssoAuthenticated: createChunk(() => import('../features/sso/SsoAuthenticatedPage.tsx')),
  ssoLogout: createChunk(() => import('../features/sso/SsoLogoutPage.tsx')),
};

const route = (path: string, access: Access, titleKey: string, priority: number, chunk: Chunk): RouteDef => ({
  path,
  access,
  modal: modalPaths.has(path),
  titleKey,
  priority,
  chunk,
});

/** The route table of spec section 2. */
export const routes: readonly RouteDef[] = [
  route(paths.login, 'anonymous', 'title.login', 1, chunks.login),
  route(paths.home, 'signedIn', 'title.home', 2, chunks.home),
  route(paths.activation, 'anonymous', 'title.activation', 3, chunks.activation),
  route(paths.profile, 'signedIn', 'title.profile', 4, chunks.profile),
  route(paths.forgotUserId, 'anonymous', 'title.forgotUserId', 5, chunks.forgotUserId),
  route(paths.forgotPassword, 'anonymous', 'title.forgotPassword', 6, chunks.forgotPassword),
  route(paths.resetPassword, 'anonymous', 'title.resetPassword', 7, chunks.resetPassword),
  route(paths.activityHistory, 'signedIn', 'title.activityHistory', 8, chunks.activityHistory),
  route(paths.rules, 'signedIn', 'title.rules', 9, chunks.rules),
  route(paths.contact, 'signedIn', 'title.contact', 10, chunks.contact),
  route(paths.faqs, 'any', 'title.faqs', 11, chunks.faqs),
  route(paths.privacyPolicy, 'any', 'title.privacyPolicy', 12, chunks.privacyPolicy),
  route(paths.privacyNotice, 'signedIn', 'title.privacyNotice', 12, chunks.privacyNotice),
  route(paths.error, 'any', 'title.error', 13, chunks.error),
  route(paths.ssoGatewayLogonFailure, 'any', 'title.error', 13, chunks.error),
  route(paths.ssoLogonFailure, 'any', 'title.error', 13, chunks.error),
  route(paths.ssoFailure, 'any', 'title.error', 13, chunks.error),
  route(paths.launchAs, 'anonymous', 'title.launchAs', 13, chunks.launchAs),
  route(paths.ssoAuthenticated, 'anonymous', 'title.ssoAuthenticated', 13, chunks.ssoAuthenticated),
  route(paths.ssoLogout, 'anonymous', 'title.ssoLogout', 13, chunks.ssoLogout),
];

const byPath = new Map(routes.map((r) => [r.path, r]));

export const findRoute = (pathname: string) => byPath.get(normalizePath(pathname));

type Resolution = { route: RouteDef; redirect?: undefined } | { redirect: string; route?: undefined };

/**
 * The rules of navigation (spec section 2): / and unknown paths go to /home or /login,
 * anonymous-only pages send a signed-in user to /home, signed-in pages send a visitor to /login.
 */
export function resolveRoute(pathname: string, signedIn: boolean): Resolution {
  const found = findRoute(pathname);
  const start = signedIn ? paths.home : paths.login;
  if (!found) return { redirect: start };
  if (found.access === 'anonymous' && signedIn) return { redirect: paths.home };
  if (found.access === 'signedIn' && !signedIn) return { redirect: paths.login };
  return { route: found };
}

/**
 * The chunks the first screen after start-up needs: the page at `pathname` (or the one it
 * redirects to) and, for a modal, the page under it. Start-up waits for them so the first
 * render shows the page itself, not a spinner the page then pushes aside.
 */
export function firstScreenChunks(pathname: string, signedIn: boolean): Chunk[] {
  const resolution = resolveRoute(pathname, signedIn);
  const shown = resolution.route ?? findRoute(resolution.redirect);
  const start = findRoute(signedIn ? paths.home : paths.login);
  const needed = shown?.modal ? [start, shown] : [shown];
  return [...new Set(needed.flatMap((r) => (r ? [r.chunk] : [])))];
}

/** Every page's chunk once, in the preload order of spec section 2, the current page's first. */
export function preloadOrder(current: RouteDef | undefined): Chunk[] {
  const ordered = [...routes].sort((a, b) => a.priority - b.priority);
  return [...new Set((current ? [current, ...ordered] : ordered).map((r) => r.chunk))];
}
