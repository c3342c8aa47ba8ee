import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestAsyncHookHandler } from 'fastify';
import type { StaffRole } from '@rewards/contract/console';
import { FRESH_SECOND_FACTOR_MINUTES } from '@rewards/contract/console-staff';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { staffErrors } from './errors.ts';
import { resumeStaffSession, STAFF_SESSION, type LiveStaffSession } from './sessions.ts';
import { roleIn } from './roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console's caller, set by requireStaff, requireRole or requireHalfSession. */
    staff: LiveStaffSession | null;
  }
}

/** The console's origin as configured, and the host name its API answers on. */
export interface ConsoleOrigin {
  origin: string;
  hostname: string;
}

/**
 * The session cookie's name: over https with the `__Host-` prefix, which the browser only
 * accepts with Secure, Path=/ and no Domain, so no other host (a client's site under the same
 * domain) can set or shadow it. Over plain http (the demo) the prefix is not allowed.
 */
export function consoleCookieName(site: ConsoleOrigin): string {
  return isHttps(site) ? '__Host-rewards_console' : 'rewards_console';
}
const isHttps = (site: ConsoleOrigin) => site.origin.startsWith('https:');

/** HttpOnly, SameSite=Strict, Path=/, Secure over https; it lives as long as the session may. */
export function setConsoleCookie(reply: FastifyReply, site: ConsoleOrigin, sessionId: string, full: boolean): void {
  const maxAge = full ? STAFF_SESSION.maxHours * 3600 : STAFF_SESSION.halfMinutes * 60;
  reply.setCookie(consoleCookieName(site), sessionId, { httpOnly: true, sameSite: 'strict', path: '/', secure: isHttps(site), maxAge });
}

export function clearConsoleCookie(reply: FastifyReply, site: ConsoleOrigin): void {
  reply.setCookie(consoleCookieName(site), '', { httpOnly: true, sameSite: 'strict', path: '/', secure: isHttps(site), maxAge: 0 });
}

export function consoleCookie(request: FastifyRequest, site: ConsoleOrigin): string | undefined {
  const value = request.cookies[consoleCookieName(site)];
  return value === undefined || value === '' ? undefined : value;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every console request: only on the console's own host (elsewhere the console API does not
 * exist: 404). Every change besides: only from the console's own pages, by the browser's word:
 * an `Origin` equal to the console's, or, where a browser sends no Origin, `Sec-Fetch-Site:
 * same-origin`. A cross-site form or fetch gets 403 before anything runs. SameSite=Strict
 * already keeps the cookie off cross-site requests; this also covers a sibling subdomain, which
 * is "same-site" to the browser.
 */
export function consoleGate(site: ConsoleOrigin) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (request.hostname.toLowerCase() !== site.hostname) return done(errors.notFound());
    if (SAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    const sameOrigin = origin === undefined ? request.headers['sec-fetch-site'] === 'same-origin' : origin === site.origin;
    done(sameOrigin ? undefined : staffErrors.crossSite());
  };
}

async function liveSession(db: Db, site: ConsoleOrigin, request: FastifyRequest): Promise<LiveStaffSession | undefined> {
  const id = consoleCookie(request, site);
  return id ? resumeStaffSession(db, id) : undefined;
}

/** The request's full session, set on it; 401 without one. */
async function fullSession(db: Db, site: ConsoleOrigin, request: FastifyRequest): Promise<LiveStaffSession> {
  const live = await liveSession(db, site, request);
  if (!live?.full) throw errors.sessionRequired();
  request.staff = live;
  return live;
}

/** onRequest: a full console session (password and second factor passed), else 401. */
export function requireStaff(db: Db, site: ConsoleOrigin): onRequestAsyncHookHandler {
  return async (request) => {
    await fullSession(db, site, request);
  };
}

/** onRequest hook of the second-factor step: a half session (the password passed, nothing more), else 401. */
export function requireHalfSession(db: Db, site: ConsoleOrigin): onRequestAsyncHookHandler {
  return async (request) => {
    const live = await liveSession(db, site, request);
    if (!live || live.full) throw errors.sessionRequired();
    request.staff = live;
  };
}

/**
 * onRequest hook of a client's routes: a full session (401) whose person is an owner or holds one
 * of `roles` in the client the request names (403 otherwise, the same whether the client
 * exists or not, so a role in one client learns nothing of the others).
 */
export function requireRole(
  db: Db,
  site: ConsoleOrigin,
  clientIdOf: (request: FastifyRequest) => string,
  roles: readonly StaffRole[],
): onRequestAsyncHookHandler {
  return async (request) => {
    const live = await fullSession(db, site, request);
    if (live.staff.owner === 1) return;
    const role = await roleIn(db, live.staff.id, clientIdOf(request));
    if (!role || !(roles as readonly string[]).includes(role)) throw errors.forbidden();
  };
}

/** onRequest hook of staff management: a full session (401) of an owner (403 for everyone else). */
export function requireOwner(db: Db, site: ConsoleOrigin): onRequestAsyncHookHandler {
  return async (request) => {
    const live = await fullSession(db, site, request);
    if (live.staff.owner !== 1) throw errors.forbidden();
  };
}

/** The caller of a guarded route; the guard has made sure there is one. */
export function staffOf(request: FastifyRequest): LiveStaffSession {
  if (!request.staff) throw errors.sessionRequired();
  return request.staff;
}

/**
 * Staff management and adjustments above the agents' limit need a second factor passed within
 * the last FRESH_SECOND_FACTOR_MINUTES (a step-up renews it); else 403 with its own code, which
 * the console answers by asking for the factor.
 */
export function requireFreshSecondFactor(live: LiveStaffSession, now: Date = new Date()): void {
  const at = live.session.second_factor_at;
  if (!at || now.getTime() - Date.parse(at) > FRESH_SECOND_FACTOR_MINUTES * 60_000) throw staffErrors.freshSecondFactorRequired();
}
