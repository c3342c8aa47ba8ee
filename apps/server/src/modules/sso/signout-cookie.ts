import type { FastifyRequest } from 'fastify';

/**
 * The browser's cookies of single sign-on: both are sent to /api/v1.0/sso/* only, HttpOnly,
 * SameSite=Lax, Secure over https.
 * - rewards_sso binds a sign-in to the browser that started it (login CSRF, decision 024);
 * - rewards_sso_signout carries the portal's sign-out to sso/logout, where the ID token it names
 *   goes to the provider as id_token_hint (decision 038).
 */
export const BINDING_COOKIE = 'rewards_sso';
export const SIGNOUT_COOKIE = 'rewards_sso_signout';
const COOKIE_PATH = '/api/v1.0/sso';

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function ssoCookie(request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}
