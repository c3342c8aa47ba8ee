import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JWKS_PATH, JwksReply, PARTNER_API_BASE, PartnerDebitReply, PartnerDebitRequest, partnerPaths } from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authenticatePartner, debitForOrder } from './partner-service.ts';
import { signingKeyFor } from './signing-key.ts';

/** The authenticated partner of a request, set before validation. */
const partners = new WeakMap<FastifyRequest, string>();

const PartnerHeaders = z.object({ authorization: z.string().max(1000).optional() });

/** Outside /api/v1.0: the JWKS, the partner API (issue 5, section 3). */
export function catalogPublicRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const signingKey = signingKeyFor(deps.config);

  // Catalogs cache the keys; a short max-age lets a rotated key reach them soon. Public data:
  // any origin may read it, also a catalog that verifies in the browser.
  typed.get(JWKS_PATH, { schema: { summary: 'The public keys that verify punch-out links (cache up to 5 minutes)', tags: ['Keys'], response: { 200: JwksReply } } }, async (_request, reply) => {
    const key = await signingKey();
    return reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').send({ keys: [key.publicJwk] });
  });

  // The client comes from the client-id header like every /api call; the partner must be one of that client's.
  typed.post(
    `${PARTNER_API_BASE}${partnerPaths.debits}`,
    {
      schema: { summary: "Debit a participant's points for an order (idempotent on orderId)", tags: ['Partner API'], headers: PartnerHeaders, body: PartnerDebitRequest, response: { 200: PartnerDebitReply } },
      // Credentials before the body: a stranger learns nothing about what a valid order looks like.
      preValidation: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const authorization = request.headers.authorization;
        try {
          partners.set(request, await authenticatePartner(deps.db, request.clientId, typeof authorization === 'string' ? authorization : undefined));
        } catch (error) {
          if (error instanceof ApiError && error.statusCode === 401) reply.header('www-authenticate', 'Basic realm="partner-api", charset="UTF-8"');
          throw error;
        }
      },
    },
    async (request) => {
      const partnerId = partners.get(request);
      if (!partnerId) throw new Error('partner authentication did not run');
      return debitForOrder(deps.db, request.clientId, partnerId, request.body);
    },
  );
}
