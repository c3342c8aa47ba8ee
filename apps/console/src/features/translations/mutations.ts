import type { BundleFormat } from '@rewards/contract/console-translations';
import { importTranslations, putTranslation, removeTranslation } from '../../api/translations.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// A client's wording in one locale: every change has all of the client's translation pages read again.

const pagesOf = (clientId: string) => () => [queryKeys.translations.ofClient(clientId)];

export const useSaveTranslation = (clientId: string, locale: string) =>
  useWrite(
    ({ key, text, reason }: { key: string; text: string; reason: string }) => putTranslation(clientId, locale, key, text, reason),
    pagesOf(clientId),
  );
export const useRemoveTranslation = (clientId: string, locale: string) =>
  useWrite(({ key, reason }: { key: string; reason: string }) => removeTranslation(clientId, locale, key, reason), pagesOf(clientId));

export interface Bundle {
  fileName: string;
  format: BundleFormat;
  content: string;
}
/** What a bundle would change, asked of the server without applying it: nothing is made stale. */
export const usePreviewBundle = (clientId: string, locale: string) =>
  useWrite((bundle: Bundle) => importTranslations(clientId, locale, { ...bundle, apply: false }));
export const useApplyBundle = (clientId: string, locale: string) =>
  useWrite(
    ({ reason, ...bundle }: Bundle & { reason: string }) => importTranslations(clientId, locale, { ...bundle, apply: true, reason }),
    pagesOf(clientId),
  );
