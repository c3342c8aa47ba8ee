import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  ContentEntry,
  ContentEntryParams,
  ContentList,
  ContentParams,
  ContentPreviewReply,
  ContentPreviewRequest,
  ContentReply,
  ContentRequest,
  MAX_CONTENT_BYTES,
  RemoveContentRequest,
  consoleTranslationsPaths as paths,
} from '@rewards/contract/console-translations';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { contentEntry, contentList, previewContent, removeContentEntry, setContentEntry } from './editing.ts';
import type { Documented } from '../staff/routes.ts';

const MANAGING: readonly StaffRole[] = ['program_manager'];
/** A text of MAX_CONTENT_BYTES as a JSON string, with room for its escapes (the app's 64 kB is for forms). */
const BODY_LIMIT = MAX_CONTENT_BYTES * 2;
const pattern = (path: string) => path.replaceAll('%3A', ':');

/**
 * The console's content editor (issue 20 §4, docs/decisions/066): rules, FAQs and privacy texts
 * in Markdown per locale. Every role of the client reads and previews (the preview changes
 * nothing); program managers and owners save and remove, with a reason, audited.
 */
export function consoleContentRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;
  const entryPath = pattern(paths.contentEntry(':clientId', ':locale', ':key'));

  typed.get(
    pattern(paths.content(':clientId')),
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's content texts: the keys (FAQs, privacy texts, each program's rules) and which locales have them",
        params: ContentParams,
        response: { 200: ContentList },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => contentList(db, request.params.clientId),
  );

  typed.get(
    entryPath,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: 'One content text in one locale: its Markdown and the portal’s rendering',
        params: ContentEntryParams,
        response: { 200: ContentEntry },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => contentEntry(db, request.params.clientId, request.params.locale, request.params.key),
  );

  typed.put(
    entryPath,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Save one content text (Markdown) in one locale, with a reason; audited',
        params: ContentEntryParams,
        body: ContentRequest,
        response: { 200: ContentReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, locale, key } = request.params;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      return setContentEntry(db, actor, { clientId, locale, key, body: request.body.body, reason: request.body.reason });
    },
  );

  typed.delete(
    entryPath,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary: 'Remove one content text in one locale, with a reason; audited (nothing there: nothing written, auditId null)',
        params: ContentEntryParams,
        body: RemoveContentRequest,
        response: { 200: ContentReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { clientId, locale, key } = request.params;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      return removeContentEntry(db, actor, { clientId, locale, key, reason: request.body.reason });
    },
  );

  typed.post(
    pattern(paths.contentPreview(':clientId')),
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Markdown as the portal renders it (the same renderer and sanitising); changes nothing',
        params: ContentParams,
        body: ContentPreviewRequest,
        response: { 200: ContentPreviewReply },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => previewContent(request.body.body),
  );
}
