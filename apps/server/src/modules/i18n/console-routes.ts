import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ExportBundleQuery,
  ImportBundleReply,
  ImportBundleRequest,
  MAX_BUNDLE_BYTES,
  RemoveTranslationRequest,
  TranslationKeyParams,
  TranslationReply,
  TranslationRequest,
  TranslationsParams,
  TranslationsQuery,
  TranslationsView,
  consoleTranslationsPaths as paths,
} from '@rewards/contract/console-translations';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { parseBundle } from './bundle-format.ts';
import { exportBundle, importBundle, removeTranslation, setTranslation, translationsView } from './editing.ts';
import type { Documented } from '../staff/routes.ts';

/** Who may change a client's wording: its program managers (and owners, who pass every role check). */
const MANAGING: readonly StaffRole[] = ['program_manager'];
const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * The console's translations (issue 20 §4, docs/decisions/066), inside the console plugin of
 * modules/staff/routes.ts: every role of the client reads and exports; program managers and owners
 * edit a key and import a bundle, with a reason, through the services the command calls.
 */
export function consoleTranslationRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const actorOf = (request: FastifyRequest) => ({ name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip });
  const base = pattern(paths.translations(':clientId', ':locale'));

  typed.get(
    base,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "A locale's keys against the default locale: missing, untranslated, placeholder mismatches; filtered and searched",
        params: TranslationsParams,
        querystring: TranslationsQuery,
        response: { 200: TranslationsView },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => translationsView(db, request.params.clientId, request.params.locale, request.query),
  );

  typed.put(
    pattern(paths.translation(':clientId', ':locale', ':key')),
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary: "One key's text in the locale, the client's own wording, with a reason; audited with before and after",
        params: TranslationKeyParams,
        body: TranslationRequest,
        response: { 200: TranslationReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, locale, key } = request.params;
      return setTranslation(db, actorOf(request), { clientId, locale, key, text: request.body.text, reason: request.body.reason });
    },
  );

  typed.delete(
    pattern(paths.translation(':clientId', ':locale', ':key')),
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary: "Remove the client's own text of a key in the locale (the shipped text shows again), with a reason; audited",
        params: TranslationKeyParams,
        body: RemoveTranslationRequest,
        response: { 200: TranslationReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, locale, key } = request.params;
      return removeTranslation(db, actorOf(request), { clientId, locale, key, reason: request.body.reason });
    },
  );

  typed.post(
    pattern(paths.importBundle(':clientId', ':locale')),
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      // A bundle of at most 2 MB, sent as a JSON string (escapes make it longer).
      bodyLimit: MAX_BUNDLE_BYTES * 2,
      schema: {
        summary:
          'A bundle file (JSON or .properties, as the command reads it): apply false says what would change; apply true writes it with a reason, audited',
        params: TranslationsParams,
        body: ImportBundleRequest,
        response: { 200: ImportBundleReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { fileName, format, content, apply, reason } = request.body;
      if (apply && !reason) throw errors.validation('A reason is required to import');
      const texts = parseBundle(fileName, format, content);
      const { clientId, locale } = request.params;
      const { mismatches: _ordered, ...reply } = await importBundle(db, actorOf(request), {
        clientId,
        locale,
        texts,
        source: fileName,
        apply,
        reason,
      });
      return reply;
    },
  );

  typed.get(
    pattern(paths.exportBundle(':clientId', ':locale')),
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: 'The locale as a bundle file (JSON or UTF-8 .properties) that the import and the command read back; a download',
        params: TranslationsParams,
        querystring: ExportBundleQuery,
        response: { 200: z.string().describe('application/json or text/plain') },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request, reply) => {
      const file = await exportBundle(db, request.params.clientId, request.params.locale, request.query.format, request.query.scope);
      reply.header('content-type', request.query.format === 'json' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`);
      return file.body;
    },
  );
}
