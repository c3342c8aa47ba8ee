import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  JWKS_PATH,
  JwksReply,
  PARTNER_API_BASE,
  PartnerDebitReply,
  PartnerDebitRequest,
  PunchoutParams,
  PunchoutReply,
  partnerPaths,
} from '@rewards/contract';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authenticatePartner, debitForOrder, redeemPunchout } from './partner-service.ts';
import { signingKeyFor } from './signing-key.ts';

/** The authenticated partner of a request, set before validation. */
const partners = new WeakMap<FastifyRequest, string>();

const PartnerHeaders = z.object({ authorization: z.string().max(1000).optional() });

/** The partner a request was authenticated as (by partnerAuthentication, which ran first). */
function partnerOf(request: FastifyRequest): string {
  const partnerId = partners.get(request);
  if (!partnerId) throw new Error('partner authentication did not run');
  return partnerId;
}

/** Outside /api/v1.0: the JWKS, the partner API (issue 5, section 3). */
export function catalogPublicRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const signingKey = signingKeyFor(deps.config);

  // Credentials before the body and parameters: a stranger learns nothing about what a valid call looks like.
  const partnerAuthentication = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const authorization = request.headers.authorization;
    try {
      partners.set(
        request,
        await authenticatePartner(deps.db, request.clientId, typeof authorization === 'string' ? authorization : undefined),
      );
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 401)
        reply.header('www-authenticate', 'Basic realm="partner-api", charset="UTF-8"');
      throw error;
    }
  };

  // Catalogs cache the keys; a short max-age lets a rotated key reach them soon. Public data:
  // any origin may read it, also a catalog that verifies in the browser.
  typed.get(
    JWKS_PATH,
    {
      schema: {
        summary: 'The public keys that verify punch-out links (cache up to 5 minutes)',
        tags: ['Keys'],
        response: { 200: JwksReply },
      },
    },
    async (_request, reply) => {
      const key = await signingKey();
      return reply
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send({ keys: [key.publicJwk] });
    },
  );

  // The client comes from the client-id header like every /api call; the partner must be one of that client's.
  typed.post(
    `${PARTNER_API_BASE}${partnerPaths.debits}`,
    {
      schema: {
        summary: "Debit a participant's points for an order (idempotent on orderId)",
        tags: ['Partner API'],
        headers: PartnerHeaders,
        body: PartnerDebitRequest,
        response: { 200: PartnerDebitReply },
      },
      preValidation: partnerAuthentication,
    },
    async (request) => debitForOrder(deps.db, request.clientId, partnerOf(request), request.body),
  );

  // Opening a punch-out link: the catalog redeems its jti once, before it shows the participant anything (decision 043).
  typed.post(
    `${PARTNER_API_BASE}/punchouts/:jti`,
    {
      schema: {
        summary: 'Redeem a punch-out link on opening it: once per link, while the portal session that asked for it lives',
        description:
          "The token's jti; no body. 409 (errorCode 50007): the link was used before; 410: it has expired (50008) or the participant's portal session has ended (50009); 404 (50006): no such link for this partner. The catalog then shows a page sending the participant back to the portal.",
        tags: ['Partner API'],
        headers: PartnerHeaders,
        params: PunchoutParams,
        response: { 200: PunchoutReply },
      },
      preValidation: partnerAuthentication,
    },
    async (request) => redeemPunchout(deps.db, request.clientId, partnerOf(request), request.params.jti),
  );
}
