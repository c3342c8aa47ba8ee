import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../http/module-deps.ts';

/** The demo catalog that `npm start` serves beside the portal (issue 5, section 3). */
export function demoCatalogRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
