import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** Outside /api/v1.0: the JWKS, the partner API (issue 5, section 3). */
export function catalogPublicRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
