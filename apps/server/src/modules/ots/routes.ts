import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** POST ots/redeem (issue 5, section 2). */
export function otsRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
