import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { consoleTranslationsPaths as paths } from '@rewards/contract/console-translations';

const pattern = (method: string, path: string) => `${method} ${CONSOLE_API_BASE}${path.replaceAll('%3A', ':')}`;

/** The translations and content routes (issue 20 §4, decision 066) as the role table names them. */
export const consoleTextRoutes = {
  view: pattern('GET', paths.translations(':clientId', ':locale')),
  edit: pattern('PUT', paths.translation(':clientId', ':locale', ':key')),
  remove: pattern('DELETE', paths.translation(':clientId', ':locale', ':key')),
  importBundle: pattern('POST', paths.importBundle(':clientId', ':locale')),
  exportBundle: pattern('GET', paths.exportBundle(':clientId', ':locale')),
  content: pattern('GET', paths.content(':clientId')),
  contentEntry: pattern('GET', paths.contentEntry(':clientId', ':locale', ':key')),
  saveContent: pattern('PUT', paths.contentEntry(':clientId', ':locale', ':key')),
  removeContent: pattern('DELETE', paths.contentEntry(':clientId', ':locale', ':key')),
  preview: pattern('POST', paths.contentPreview(':clientId')),
} as const;

type Send = (method: HTTPMethods, path: string, options?: { body?: unknown }) => Promise<LightMyRequestResponse>;

/**
 * One cell of the role table for a translations or content route: a request that succeeds for
 * whoever may make it (fr-FR, which acme and globex both offer; a text of the column's own, so
 * every allowed change changes something). Undefined for a route of another part.
 */
export async function consoleTextRequest(
  row: string,
  clientId: string,
  column: string,
  send: Send,
): Promise<LightMyRequestResponse | undefined> {
  const reason = 'role table: issue 20';
  switch (row) {
    case consoleTextRoutes.view:
      return send('GET', `${paths.translations(clientId, 'fr-FR')}?filter=toTranslate`);
    case consoleTextRoutes.edit:
      return send('PUT', paths.translation(clientId, 'fr-FR', 'login.heading'), { body: { text: `Connexion ${column}`, reason } });
    case consoleTextRoutes.remove:
      return send('DELETE', paths.translation(clientId, 'fr-FR', 'login.heading'), { body: { reason } });
    case consoleTextRoutes.importBundle:
      return send('POST', paths.importBundle(clientId, 'fr-FR'), {
        body: {
          fileName: 'fr-FR.json',
          format: 'json',
          content: JSON.stringify({ 'login.username': `Identifiant ${column}` }),
          apply: true,
          reason,
        },
      });
    case consoleTextRoutes.exportBundle:
      return send('GET', `${paths.exportBundle(clientId, 'fr-FR')}?format=properties`);
    case consoleTextRoutes.content:
      return send('GET', paths.content(clientId));
    case consoleTextRoutes.contentEntry:
      return send('GET', paths.contentEntry(clientId, 'fr-FR', 'faqs'));
    case consoleTextRoutes.saveContent:
      return send('PUT', paths.contentEntry(clientId, 'fr-FR', 'faqs'), { body: { body: `## FAQ\n${column}`, reason } });
    case consoleTextRoutes.removeContent:
      return send('DELETE', paths.contentEntry(clientId, 'fr-FR', 'privacyPolicy'), { body: { reason } });
    case consoleTextRoutes.preview:
      return send('POST', paths.contentPreview(clientId), { body: { body: '**bold**' } });
    default:
      return undefined;
  }
}
