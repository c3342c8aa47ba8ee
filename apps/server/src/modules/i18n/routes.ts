import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BundleParams, BundleReply, ClientHeaders } from '@rewards/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { replyNegotiated } from '../../http/negotiated-reply.ts';
import { readyReplies } from '../../http/ready-reply.ts';
import { clientLocales } from '../clients/service.ts';
import { preparedBundle } from './service.ts';

export function bundleRoutes(app: FastifyInstance, db: Db): void {
  const ready = readyReplies(app, { noStore: true });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/viewConfig/bundle/:locale',
    { schema: { summary: "The program's texts in one language (revalidate with If-None-Match)", tags: ['Program'], headers: ClientHeaders, params: BundleParams, response: { 200: BundleReply, 304: z.null() } } },
    async (request, reply) => {
      const offered = await clientLocales(db, request.clientId);
      const locale = offered.find((l) => l.code.toLowerCase() === request.params.locale.toLowerCase());
      if (!locale) throw errors.unsupportedLocale();
      // The bytes in the form the caller accepts, each form with its own ETag, or a 304 for it.
      return replyNegotiated(ready, request, reply, (await preparedBundle(db, request.clientId, locale.code)).reply);
    },
  );
}
