import {
  consoleTranslationsPaths as paths,
  type BundleFormat,
  type ContentEntry,
  type ContentList,
  type ContentPreviewReply,
  type ContentReply,
  type ExportScope,
  type ImportBundleReply,
  type ImportBundleRequest,
  type TranslationReply,
  type TranslationsQuery,
  type TranslationsView,
} from '@rewards/contract/console-translations';
import { api, apiUrl } from './client.ts';

// A client's translations and content texts (issue 20 §4, decision 066): every role reads, program managers and owners change.
export const getTranslations = (clientId: string, locale: string, query: TranslationsQuery) =>
  api<TranslationsView>('GET', paths.translations(clientId, locale), { query: { filter: query.filter, q: query.q } });
export const putTranslation = (clientId: string, locale: string, key: string, text: string, reason: string) =>
  api<TranslationReply>('PUT', paths.translation(clientId, locale, key), { body: { text, reason } });
export const removeTranslation = (clientId: string, locale: string, key: string, reason: string) =>
  api<TranslationReply>('DELETE', paths.translation(clientId, locale, key), { body: { reason } });
export const importTranslations = (clientId: string, locale: string, body: ImportBundleRequest) =>
  api<ImportBundleReply>('POST', paths.importBundle(clientId, locale), { body });
export const exportTranslationsUrl = (clientId: string, locale: string, format: BundleFormat, scope: ExportScope) =>
  apiUrl(paths.exportBundle(clientId, locale), { format, scope });
/** The portal's words in a locale as the client's participants read them (shipped and own), for the brand preview (decision 087). */
export const getPortalBundle = async (clientId: string, locale: string) =>
  JSON.parse(
    await api<string>('GET', paths.exportBundle(clientId, locale), { query: { format: 'json', scope: 'all' }, text: true }),
  ) as Record<string, string>;

export const getContentList = (clientId: string) => api<ContentList>('GET', paths.content(clientId));
export const getContentEntry = (clientId: string, locale: string, key: string) =>
  api<ContentEntry>('GET', paths.contentEntry(clientId, locale, key));
export const putContentEntry = (clientId: string, locale: string, key: string, body: string, reason: string) =>
  api<ContentReply>('PUT', paths.contentEntry(clientId, locale, key), { body: { body, reason } });
export const removeContentEntry = (clientId: string, locale: string, key: string, reason: string) =>
  api<ContentReply>('DELETE', paths.contentEntry(clientId, locale, key), { body: { reason } });
export const previewContent = (clientId: string, body: string) =>
  api<ContentPreviewReply>('POST', paths.contentPreview(clientId), { body: { body } });
