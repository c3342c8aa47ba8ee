import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../http/module-deps.ts';

/** POST activate, forgotUsername, forgotPassword, savePassword (issue 7). */
export function accountRoutes(_app: FastifyInstance, _deps: ModuleDeps): void {}
