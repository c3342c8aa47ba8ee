import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** Rules, FAQs, privacy texts and contactUs (issue 5, section 6). */
export function contentRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
