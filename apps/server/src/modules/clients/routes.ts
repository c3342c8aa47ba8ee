import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClientData, ClientHeaders, apiPaths } from '@rewards/contract';
import { z } from 'zod';
import { sendCompressedOnce } from '../../http/compressed-once/index.ts';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { clientData, getClientLogo } from './service.ts';

export function clientRoutes(app: FastifyInstance, { db, sessionPolicy }: ModuleDeps): void {
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
    // The same data for every request until an operator's edit: written and compressed once (decision 056).
    async (request, reply) => sendCompressedOnce(request, reply, await clientData(db, request.clientId, sessionPolicy)),
  );
}

/**
 * The logo is fetched by an <img>, which sends no client-id header: it is addressed by client
 * id. Served with its stored media type under .svg or .png (mails link the .svg address).
 */
export function brandRoutes(app: FastifyInstance, { db }: ModuleDeps): void {
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
