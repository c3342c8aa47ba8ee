// Single sign-on with OpenID Connect (issue 9, docs/decisions/024). Zod-free: the web imports it.

/**
 * The server's SSO addresses under API_BASE. The first three are browser navigations (no
 * client-id header: the client comes from the Host, decision 024).
 */
export const ssoPaths = {
  /** Starts a sign-in at the client's provider. */
  login: '/sso/login',
  /** The redirect URI to register at the provider: `<site origin>/api/v1.0/sso/callback`. */
  callback: '/sso/callback',
  /** Sends the browser to the provider's end-session endpoint, then to clientSite.url. */
  logout: '/sso/logout',
} as const;

/** The query parameter of /sso-authenticated that carries the one-time session id (spec section 4). */
export const SSO_SESSION_PARAM = 'JSESSIONID';

/** Error code of a pre-activation sign-in (spec section 9), also sent as /sso-authenticated?code=20013. */
export const SSO_PRE_ACTIVATION_CODE = 20013;
