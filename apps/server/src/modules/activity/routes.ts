import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** GET user/account/statement (issue 5, section 1). */
export function activityRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
