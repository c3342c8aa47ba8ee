/** Every URL of the API in one place (spec section 7). */
export const API_BASE = '/api/v1.0';

export const apiPaths = {
  clientData: '/viewConfig/client',
  bundle: (locale: string) => `/viewConfig/bundle/${encodeURIComponent(locale)}`,
  login: '/login',
  logout: '/logout',
  user: '/user',
  userLocale: '/user/locale',
  programNames: '/user/program-names',
  acknowledgePrivacyNotice: '/user/acknowledge-privacy-notice',
} as const;

export const SESSION_HEADER = 'x-session-id';
export const CLIENT_HEADER = 'client-id';
