import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BundleParams, BundleReply, ClientHeaders } from '@rewards/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { JSON_TYPE, readyReplies } from '../../http/ready-reply.ts';
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
      const { etag, replyBody } = await preparedBundle(db, request.clientId, locale.code);
      // Revalidate every time, answer 304 when unchanged: an operator's edit shows within the
      // read cache's few seconds. The URL names no version, so it cannot be cached for long.
      const headers = ['etag', etag, 'cache-control', 'no-cache'];
      const unchanged = request.headers['if-none-match'] === etag;
      // Written in one go from lists built once per bundle (docs/decisions/028), or else:
      if (unchanged ? ready.notModified(request, reply, replyBody, headers) : ready.send(request, reply, replyBody, headers)) return reply;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      // No body, so no content-type or content-length either (a "null" body's length of 4 made
      // strict HTTP/1.1 clients wait for bytes a 304 never carries).
      if (unchanged) return reply.status(304).send(undefined as never);
      // Serialised once per cache lifetime (BundleReply-shaped by construction), sent as is.
      return reply.type(JSON_TYPE).send(replyBody as unknown as BundleReply);
    },
  );
}
