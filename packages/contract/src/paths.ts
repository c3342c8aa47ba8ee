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
  // Participant features (activity, on-the-spot codes, catalogs, profile, content).
  statement: (username: string, locale: string) =>
    `/user/account/statement?username=${encodeURIComponent(username)}&locale=${encodeURIComponent(locale)}`,
  /** What of the balance expires when (issue 19). */
  expirySchedule: '/user/points/expiring',
  otsRedeem: '/ots/redeem',
  catalogUrl: (type: string) => `/user/catalog-url/${encodeURIComponent(type)}`,
  userPassword: '/user/password',
  contentKey: (key: string) => `/cmmo/key/honeycombSystem/${encodeURIComponent(key)}`,
  contactUs: '/contactUs',
  // Account lifecycle (issue 7).
  activate: '/activate',
  forgotUsername: '/forgotUsername',
  forgotPassword: '/forgotPassword',
  savePassword: '/savePassword',
  // Launch-as (issue 9).
  launchAs: '/launchAs',
} as const;

/** The catalogs' partner API (not under API_BASE: callers are partners, not the portal). */
export const PARTNER_API_BASE = '/api/partner/v1';
export const partnerPaths = {
  debits: '/debits',
  /** A catalog redeems a punch-out link (its token's jti) once, on opening it. */
  punchout: (jti: string) => `/punchouts/${encodeURIComponent(jti)}`,
} as const;

/** Where the portal publishes the public keys that verify its punch-out links. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** The OpenAPI 3.1 document of every endpoint (no client-id, no session needed). */
export const API_DOCUMENT_PATH = '/api/openapi.json';

export const SESSION_HEADER = 'x-session-id';
export const CLIENT_HEADER = 'client-id';
