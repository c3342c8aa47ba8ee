import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** GET user/catalog-url/{type} (issue 5, section 3). */
export function catalogRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
