import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BundleParams, BundleReply, ClientHeaders, type LocaleOption } from '@rewards/contract';
import { z } from 'zod';
import { errors } from '../../http/api-error.ts';
import { sendCompressedOnce } from '../../http/compressed-once/index.ts';
import type { ModuleDeps } from '../../http/module-deps.ts';
import { clientLocales } from '../clients/service.ts';
import { preparedBundle } from './service.ts';

/** The client's locale a path names, whatever its letter case. */
function offeredLocale(offered: readonly LocaleOption[], asked: string): LocaleOption | undefined {
  const wanted = asked.toLowerCase();
  return offered.find((l) => l.code.toLowerCase() === wanted);
}

/** Whether If-None-Match names this weak tag: `*`, or one of a list, compared weakly (RFC 9110 §13.1.2). */
function unchanged(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque;
  });
}

export function bundleRoutes(app: FastifyInstance, { db }: ModuleDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/viewConfig/bundle/:locale',
    {
      schema: {
        summary: "The program's texts in one language (revalidate with If-None-Match)",
        tags: ['Program'],
        headers: ClientHeaders,
        params: BundleParams,
        response: { 200: BundleReply, 304: z.null() },
      },
    },
    async (request, reply) => {
      const locale = offeredLocale(await clientLocales(db, request.clientId), request.params.locale);
      if (!locale) throw errors.unsupportedLocale();
      const prepared = await preparedBundle(db, request.clientId, locale.code);
      // Revalidated every time (no-cache), answered 304 when unchanged: an operator's edit shows
      // within the read cache's few seconds. The URL names no version, so it cannot be kept long.
      reply.header('cache-control', 'no-cache').header('etag', prepared.etag).header('vary', 'accept-encoding');
      if (unchanged(request.headers['if-none-match'], prepared.etag)) return reply.status(304).send(undefined as never); // no body, no content-length
      return sendCompressedOnce(request, reply, prepared.reply);
    },
  );
}
