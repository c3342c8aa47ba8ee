import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClientData, ClientHeaders, apiPaths } from '@rewards/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { replyNegotiated, replyNegotiatedAtOnce } from '../../http/negotiated-reply.ts';
import { readyReplies } from '../../http/ready-reply.ts';
import type { SessionPolicy } from '../sessions/service.ts';
import { clientDataBody, clientDataBodyAtHand, getClientLogo } from './service.ts';

export function clientRoutes(app: FastifyInstance, db: Db, sessionPolicy: SessionPolicy): void {
  // Under the API's no-store rule (app.ts).
  const ready = readyReplies(app, { noStore: true });
  const loadAndReply = async (request: FastifyRequest, reply: FastifyReply) =>
    replyNegotiated(ready, request, reply, await clientDataBody(db, request.clientId, sessionPolicy));
  app.withTypeProvider<ZodTypeProvider>().get(
    apiPaths.clientData,
    {
      schema: {
        summary: "The site's program: name, branding, languages, sign-in and password rules",
        tags: ['Program'],
        headers: ClientHeaders,
        response: { 200: ClientData },
      },
    },
    (request, reply) => {
      // Already serialised and checked against ClientData; the bytes (or their brotli or gzip
      // form, as the caller accepts) are sent as they are. With everything at hand, at once and
      // without a promise (decision 036); undefined tells Fastify the reply is taken care of.
      const body = clientDataBodyAtHand(db, request.clientId, sessionPolicy);
      if (body && replyNegotiatedAtOnce(ready, request, reply, body)) return undefined;
      return loadAndReply(request, reply);
    },
  );
}

/**
 * The logo is fetched by an <img>, which sends no client-id header: it is addressed by client
 * id. Served with its stored media type under .svg or .png (mails link the .svg address).
 */
export function brandRoutes(app: FastifyInstance, db: Db): void {
  for (const extension of ['svg', 'png']) {
    app.withTypeProvider<ZodTypeProvider>().get(
      `/brand/:clientId/logo.${extension}`,
      {
        schema: {
          params: z.object({ clientId: z.string().min(1).max(100) }),
          querystring: z.object({ v: z.string().max(64).optional() }),
        },
      },
      async (request, reply) => {
        const logo = await getClientLogo(db, request.params.clientId);
        if (!logo) return reply.status(404).type('text/plain').send('Not found');
        // The address client data gives names this logo's version: it never changes, keep it a year.
        const current = request.query.v === logo.version;
        return (
          reply
            .type(logo.type)
            .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
            .header('x-content-type-options', 'nosniff')
            // An SVG opened on its own must not run script.
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
            .send(logo.body)
        );
      },
    );
  }
}
