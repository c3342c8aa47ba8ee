/** Every route of spec section 2. */
export const paths = {
  home: '/home',
  login: '/login',
  activation: '/activation',
  launchAs: '/launch-as',
  forgotUserId: '/forgot-user-id',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  ssoAuthenticated: '/sso-authenticated',
  ssoLogout: '/sso-logout',
  profile: '/profile',
  rules: '/rules',
  contact: '/contact',
  activityHistory: '/activity-history',
  privacyNotice: '/privacy-notice',
  faqs: '/faqs',
  privacyPolicy: '/privacy-shield',
  error: '/error',
  ssoGatewayLogonFailure: '/ssoGatewayLogonFailure',
  ssoLogonFailure: '/ssoLogonFailure',
  ssoFailure: '/ssoFailure',
} as const;

/** Routes that open as a modal over the previous page. */
export const modalPaths: ReadonlySet<string> = new Set([
  paths.profile,
  paths.rules,
  paths.contact,
  paths.activityHistory,
  paths.privacyNotice,
  paths.faqs,
  paths.privacyPolicy,
  paths.error,
  paths.ssoGatewayLogonFailure,
  paths.ssoLogonFailure,
  paths.ssoFailure,
]);

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export const isModalPath = (pathname: string) => modalPaths.has(normalizePath(pathname));

/** The page under a modal, kept in history state (react-router's background-location pattern). */
export interface BackgroundLocation {
  pathname: string;
  search: string;
  hash: string;
}

export function backgroundOf(state: unknown): BackgroundLocation | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const background = (state as { backgroundLocation?: unknown }).backgroundLocation;
  if (typeof background !== 'object' || background === null) return undefined;
  const { pathname, search, hash } = background as Record<string, unknown>;
  if (typeof pathname !== 'string') return undefined;
  return { pathname, search: typeof search === 'string' ? search : '', hash: typeof hash === 'string' ? hash : '' };
}
