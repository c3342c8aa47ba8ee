import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** launchAs (issue 9): a support administrator's single-use token becomes a participant session. Registered under /api/v1.0. */
export function launchAsRoutes(_api: FastifyInstance, _deps: ModuleDeps): void {}

/** The admin API (issue 9): POST /api/admin/v1/launch-tokens with a bearer key. Registered at the root. */
export function adminApiRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
