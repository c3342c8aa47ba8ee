import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** Single sign-on with OpenID Connect (issue 9): sso/login, sso/callback. Registered under /api/v1.0. */
export function ssoRoutes(_api: FastifyInstance, _deps: ModuleDeps): void {}
