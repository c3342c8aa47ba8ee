import { putContentEntry, removeContentEntry } from '../../api/translations.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// A client's Markdown texts: a save or a removal has the entry and the list (which names what exists) read again.

interface Entry {
  locale: string;
  key: string;
}
const staleAfter =
  (clientId: string) =>
  (_: unknown, { locale, key }: Entry) => [queryKeys.content.entry(clientId, locale, key), queryKeys.content.list(clientId)];

export const useSaveContent = (clientId: string) =>
  useWrite(
    ({ locale, key, body, reason }: Entry & { body: string; reason: string }) => putContentEntry(clientId, locale, key, body, reason),
    staleAfter(clientId),
  );
export const useRemoveContent = (clientId: string) =>
  useWrite(
    ({ locale, key, reason }: Entry & { reason: string }) => removeContentEntry(clientId, locale, key, reason),
    staleAfter(clientId),
  );
