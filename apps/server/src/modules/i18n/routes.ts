import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BundleParams, BundleReply, ClientHeaders, type LocaleOption } from '@rewards/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { replyNegotiated, replyNegotiatedAtOnce } from '../../http/negotiated-reply.ts';
import { readyReplies } from '../../http/ready-reply.ts';
import { clientLocales, clientLocalesAtHand } from '../clients/service.ts';
import { preparedBundle, preparedBundleAtHand } from './service.ts';

/** The client's locale a path names, whatever its letter case. */
function offeredLocale(offered: readonly LocaleOption[], asked: string): LocaleOption | undefined {
  const wanted = asked.toLowerCase();
  return offered.find((l) => l.code.toLowerCase() === wanted);
}

export function bundleRoutes(app: FastifyInstance, db: Db): void {
  const ready = readyReplies(app, { noStore: true });
  const loadAndReply = async (request: FastifyRequest<{ Params: z.infer<typeof BundleParams> }>, reply: FastifyReply) => {
    const locale = offeredLocale(await clientLocales(db, request.clientId), request.params.locale);
    if (!locale) throw errors.unsupportedLocale();
    // The bytes in the form the caller accepts, each form with its own ETag, or a 304 for it.
    return replyNegotiated(ready, request, reply, (await preparedBundle(db, request.clientId, locale.code)).reply);
  };
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
    (request, reply) => {
      // With the client's languages and this bundle at hand, at once and without a promise
      // (decision 036); undefined tells Fastify the reply is taken care of.
      const offered = clientLocalesAtHand(db, request.clientId);
      const locale = offered && offeredLocale(offered, request.params.locale);
      const prepared = locale && preparedBundleAtHand(db, request.clientId, locale.code);
      if (prepared && replyNegotiatedAtOnce(ready, request, reply, prepared.reply)) return undefined;
      return loadAndReply(request, reply);
    },
  );
}
