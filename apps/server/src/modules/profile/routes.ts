import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** PUT user/password (issue 5, section 5). */
export function profileRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
